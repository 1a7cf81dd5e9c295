package spreadsheetfile

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"unicode/utf16"
)

// XLS (BIFF8 in a compound file) is written record for record as the spreadsheet library n8n
// uses writes it, so that the same items give the same bytes: strings as LABEL records, numbers
// as NUMBER, booleans as BOOLERR, one worksheet. A string cell holds at most 255 characters
// (longer text is cut), and a sheet at most 65,536 rows and 256 columns.

const (
	xlsMaxRows     = 65536
	xlsMaxCols     = 256
	xlsMaxLabel    = 255
	xlsCellXF      = 0x10
	cfbSector      = 512
	cfbMiniSector  = 64
	cfbMiniCutoff  = 0x1000
	cfbEndOfChain  = -2
	cfbFreeSect    = -1
	cfbFATSect     = -3
	cfbMaxFATSects = 109 // FAT sectors the header can list; more would need DIFAT sectors
)

type biffRecord struct {
	typ     uint16
	payload []byte
}

func h(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// writeAccess names the writing application as n8n's spreadsheet library does.
func writeAccess() []byte {
	b := make([]byte, 112)
	copy(b, append([]byte{7, 0, 0}, "Sh33tJS"...))
	return b
}

var globalsRecords = []biffRecord{
	{0x0809, h("000605006272cd0709c0010006070000")}, // BOF
	{0x00e1, h("b004")},                             // INTERFACEHDR
	{0x00c1, h("0000")},                             // MMS
	{0x00e2, h("")},                                 // INTERFACEEND
	{0x005c, writeAccess()},                         // WRITEACCESS
	{0x0042, h("b004")},                             // CODEPAGE
	{0x0161, h("0000")},                             // DSF
	{0x01c0, h("")},                                 // EXCEL9FILE
	{0x013d, h("0100")},                             // TABID
	{0x009c, h("1100")},                             // FNGROUPCOUNT
	{0x0019, h("0000")},                             // WINDOWPROTECT
	{0x0012, h("0000")},                             // PROTECT
	{0x0013, h("0000")},                             // PASSWORD
	{0x01af, h("0000")},                             // PROT4REV
	{0x01bc, h("0000")},                             // PROT4REVPASS
	{0x003d, h("000000006072c0443800000000000100f401")}, // WINDOW1
	{0x0040, h("0000")}, // BACKUP
	{0x008d, h("0000")}, // HIDEOBJ
	{0x0022, h("0000")}, // DATE1904
	{0x000e, h("0100")}, // PRECISION
	{0x01b7, h("0000")}, // REFRESHALL
	{0x00da, h("0000")}, // BOOKBOOL
	{0x0031, h("f000000000009001000000000000050141007200690061006c00")},                                                       // FONT
	{0x041e, h("380018000122000a4e48532f000b4e485320002200680068002200426622006d006d00220006522200730073002200d27920002200")}, // FORMAT
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("00000000f4ff0000000000000000000000000000")},                                                                   // XF
	{0x00e0, h("0000000000000000000000000000000000000000")},                                                                   // XF
	{0x0160, h("0000")}, // USESELFS
}
var sheetPrologue = []biffRecord{
	{0x0809, h("000610006272cd0709c0010006070000")}, // BOF
	{0x000d, h("0100")},                             // CALCMODE
	{0x000c, h("6400")},                             // CALCCOUNT
	{0x000f, h("0100")},                             // REFMODE
	{0x0011, h("0000")},                             // ITERATION
	{0x0010, h("fca9f1d24d62503f")},                 // DELTA
	{0x005f, h("0100")},                             // SAVERECALC
	{0x002a, h("0000")},                             // PRINTHEADERS
	{0x002b, h("0000")},                             // PRINTGRIDLINES
	{0x0082, h("0100")},                             // GRIDSET
	{0x0080, h("0000000000000000")},                 // GUTS
	{0x0083, h("0000")},                             // HCENTER
	{0x0084, h("0000")},                             // VCENTER
}

func appendRecord(b []byte, typ uint16, payload []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, typ)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(payload)))
	return append(b, payload...)
}

// appendXLString appends a BIFF8 string: its length (lenBytes wide), a flags byte saying
// UTF-16, and the UTF-16 characters.
func appendXLString(b []byte, s string, lenBytes int) []byte {
	u := utf16.Encode([]rune(s))
	if lenBytes == 1 {
		b = append(b, byte(len(u)))
	} else {
		b = binary.LittleEndian.AppendUint16(b, uint16(len(u)))
	}
	b = append(b, 1)
	for _, c := range u {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return b
}

func cellHeader(r, c int) []byte {
	b := binary.LittleEndian.AppendUint16(nil, uint16(r))
	b = binary.LittleEndian.AppendUint16(b, uint16(c))
	return binary.LittleEndian.AppendUint16(b, xlsCellXF)
}

// workbookStream is the BIFF8 Workbook stream of one sheet.
func workbookStream(sh sheet, sheetName string) ([]byte, error) {
	cols := 0
	for _, row := range sh {
		cols = max(cols, len(row))
	}
	if len(sh) > xlsMaxRows || cols > xlsMaxCols {
		return nil, errors.New("The data does not fit in an XLS sheet (at most 65,536 rows and 256 columns); choose XLSX")
	}
	var b []byte
	for _, r := range globalsRecords {
		b = appendRecord(b, r.typ, r.payload)
	}
	// BOUNDSHEET holds the offset of the sheet's BOF: after itself, COUNTRY, SST and EOF.
	name := []rune(sheetName)
	if len(name) > 31 {
		name = name[:31]
	}
	bound := appendXLString(make([]byte, 6), string(name), 1)
	sheetStart := len(b) + 4 + len(bound) + 4 + 4 + 4 + 8 + 4
	binary.LittleEndian.PutUint32(bound, uint32(sheetStart))
	b = appendRecord(b, 0x0085, bound)           // BOUNDSHEET
	b = appendRecord(b, 0x008c, h("01000100"))   // COUNTRY
	b = appendRecord(b, 0x00fc, make([]byte, 8)) // SST, empty: strings are LABEL records
	b = appendRecord(b, 0x000a, nil)             // EOF

	for _, r := range sheetPrologue {
		b = appendRecord(b, r.typ, r.payload)
	}
	lastRow, lastCol := max(len(sh)-1, 0), max(cols-1, 0)
	dim := binary.LittleEndian.AppendUint32(nil, 0)
	dim = binary.LittleEndian.AppendUint32(dim, uint32(lastRow+1))
	dim = binary.LittleEndian.AppendUint16(dim, 0)
	dim = binary.LittleEndian.AppendUint16(dim, uint16(lastCol+1))
	dim = binary.LittleEndian.AppendUint16(dim, 0)
	b = appendRecord(b, 0x0200, dim) // DIMENSIONS
	for r, row := range sh {
		for c, v := range row {
			switch v := v.(type) {
			case float64:
				b = appendRecord(b, 0x0203, binary.LittleEndian.AppendUint64(cellHeader(r, c), math.Float64bits(v))) // NUMBER
			case bool:
				val := byte(0)
				if v {
					val = 1
				}
				b = appendRecord(b, 0x0205, append(cellHeader(r, c), val, 0)) // BOOLERR
			case string:
				s := []rune(v)
				if len(s) > xlsMaxLabel {
					s = s[:xlsMaxLabel]
				}
				b = appendRecord(b, 0x0204, appendXLString(cellHeader(r, c), string(s), 2)) // LABEL
			}
		}
	}
	b = appendRecord(b, 0x023e, h("b60600000000400000000000000000000000"))   // WINDOW2
	b = appendRecord(b, 0x01ba, appendXLString(nil, string(name), 2))        // CODENAME
	b = appendRecord(b, 0x0867, h("67080000000000000000000003000100000000")) // FEATHEADR
	feat := h("680800000000000000000000030000000000000100040000000000")
	feat = binary.LittleEndian.AppendUint16(feat, 0)
	feat = binary.LittleEndian.AppendUint16(feat, uint16(lastRow))
	feat = binary.LittleEndian.AppendUint16(feat, 0)
	feat = binary.LittleEndian.AppendUint16(feat, uint16(lastCol))
	feat = append(feat, 4, 0, 0, 0)
	b = appendRecord(b, 0x0868, feat) // FEAT
	b = appendRecord(b, 0x000a, nil)  // EOF
	return b, nil
}

// writeXLS wraps the Workbook stream in a compound file laid out as n8n's library does: FAT,
// mini FAT, directory, a large Workbook stream, then the mini stream.
func writeXLS(sh sheet, sheetName string) ([]byte, error) {
	wb, err := workbookStream(sh, sheetName)
	if err != nil {
		return nil, err
	}
	marker := []byte("7262")
	ceil := func(n, d int) int { return (n + d - 1) / d }
	miniSize := ceil(len(marker), cfbMiniSector) // mini sectors in use
	bigSectors := 0
	if len(wb) < cfbMiniCutoff {
		miniSize += ceil(len(wb), cfbMiniSector)
	} else {
		bigSectors = ceil(len(wb), cfbSector)
	}
	miniCnt := ceil(miniSize, cfbSector/cfbMiniSector)
	mfatCnt := ceil(miniSize, cfbSector/4)
	dirCnt := 1
	base := miniCnt + bigSectors + dirCnt + mfatCnt
	fatCnt := ceil(base, cfbSector/4)
	for ceil(base+fatCnt, cfbSector/4) > fatCnt {
		fatCnt++
	}
	if fatCnt > cfbMaxFATSects {
		return nil, errors.New("The data is too large for an XLS file; choose XLSX")
	}
	mfatStart := fatCnt
	dirStart := mfatStart + mfatCnt
	bigStart := dirStart + dirCnt
	miniStart := bigStart + bigSectors
	total := miniStart + miniCnt

	var out bytes.Buffer
	le := func(v any) { _ = binary.Write(&out, binary.LittleEndian, v) }
	// header
	out.Write(h("d0cf11e0a1b11ae1"))
	out.Write(make([]byte, 16))
	le([]uint16{0x3e, 3, 0xfffe, 9, 6})
	out.Write(make([]byte, 6))
	le([]int32{0, int32(fatCnt), int32(dirStart), 0, cfbMiniCutoff})
	if mfatCnt > 0 {
		le([]int32{int32(mfatStart), int32(mfatCnt)})
	} else {
		le([]int32{cfbEndOfChain, 0})
	}
	le([]int32{cfbEndOfChain, 0})
	for i := range cfbMaxFATSects {
		if i < fatCnt {
			le(int32(i))
		} else {
			le(int32(cfbFreeSect))
		}
	}
	// FAT
	fat := make([]int32, 0, fatCnt*cfbSector/4)
	chain := func(n int) {
		for i := 1; i < n; i++ {
			fat = append(fat, int32(len(fat)+1))
		}
		if n > 0 {
			fat = append(fat, cfbEndOfChain)
		}
	}
	for range fatCnt {
		fat = append(fat, cfbFATSect)
	}
	chain(mfatCnt)
	chain(dirCnt)
	chain(bigSectors)
	chain(miniCnt)
	for len(fat) < fatCnt*cfbSector/4 {
		fat = append(fat, cfbEndOfChain)
	}
	le(fat)
	// mini FAT: the marker stream, then the Workbook stream when it is small
	mfat := make([]int32, 0, mfatCnt*cfbSector/4)
	mchain := func(n int) {
		for i := 1; i < n; i++ {
			mfat = append(mfat, int32(len(mfat)+1))
		}
		mfat = append(mfat, cfbEndOfChain)
	}
	mchain(ceil(len(marker), cfbMiniSector))
	if bigSectors == 0 {
		mchain(ceil(len(wb), cfbMiniSector))
	}
	for len(mfat) < mfatCnt*cfbSector/4 {
		mfat = append(mfat, cfbEndOfChain)
	}
	le(mfat)
	// directory
	entry := func(name string, typ, color byte, left, right, child int32, start int32, size int) {
		e := make([]byte, 128)
		u := utf16.Encode([]rune(name))
		if name != "" {
			u = append(u, 0)
		}
		for i, c := range u {
			binary.LittleEndian.PutUint16(e[2*i:], c)
		}
		binary.LittleEndian.PutUint16(e[64:], uint16(2*len(u)))
		e[66], e[67] = typ, color
		binary.LittleEndian.PutUint32(e[68:], uint32(left))
		binary.LittleEndian.PutUint32(e[72:], uint32(right))
		binary.LittleEndian.PutUint32(e[76:], uint32(child))
		binary.LittleEndian.PutUint32(e[116:], uint32(start))
		binary.LittleEndian.PutUint32(e[120:], uint32(size))
		out.Write(e)
	}
	wbStart := int32(ceil(len(marker), cfbMiniSector))
	if bigSectors > 0 {
		wbStart = int32(bigStart)
	}
	entry("R", 5, 1, -1, -1, 1, int32(miniStart), miniSize*cfbMiniSector)
	entry("\x01Sh33tJ5", 2, 1, -1, 2, -1, 0, len(marker))
	entry("Workbook", 2, 1, -1, -1, -1, wbStart, len(wb))
	entry("", 0, 0, -1, -1, -1, 0, 0)
	pad := func(n int) {
		if r := out.Len() % n; r != 0 {
			out.Write(make([]byte, n-r))
		}
	}
	if bigSectors > 0 {
		out.Write(wb)
		pad(cfbSector)
	}
	out.Write(marker)
	pad(cfbMiniSector)
	if bigSectors == 0 {
		out.Write(wb)
		pad(cfbMiniSector)
	}
	pad(cfbSector)
	if out.Len() != cfbSector*(total+1) {
		return nil, errors.New("XLS layout error")
	}
	return out.Bytes(), nil
}
