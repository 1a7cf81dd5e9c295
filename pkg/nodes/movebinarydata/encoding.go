package movebinarydata

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// encodings are the iconv-lite encoding names the node offers, mapped to Go's implementations.
// "ascii", "binary", "base64" and "hex" are handled apart.
var encodings = map[string]encoding.Encoding{
	"utf8":        unicode.UTF8,
	"ucs2":        unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM),
	"utf16be":     unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM),
	"utf16":       unicode.UTF16(unicode.LittleEndian, unicode.UseBOM),
	"utf32le":     utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM),
	"utf32be":     utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM),
	"utf32":       utf32.UTF32(utf32.LittleEndian, utf32.UseBOM),
	"iso88591":    charmap.ISO8859_1,
	"iso88592":    charmap.ISO8859_2,
	"iso88593":    charmap.ISO8859_3,
	"iso88594":    charmap.ISO8859_4,
	"iso88595":    charmap.ISO8859_5,
	"iso88596":    charmap.ISO8859_6,
	"iso88597":    charmap.ISO8859_7,
	"iso88598":    charmap.ISO8859_8,
	"iso885910":   charmap.ISO8859_10,
	"iso885913":   charmap.ISO8859_13,
	"iso885914":   charmap.ISO8859_14,
	"iso885915":   charmap.ISO8859_15,
	"iso885916":   charmap.ISO8859_16,
	"windows874":  charmap.Windows874,
	"windows1250": charmap.Windows1250,
	"windows1251": charmap.Windows1251,
	"windows1252": charmap.Windows1252,
	"windows1253": charmap.Windows1253,
	"windows1254": charmap.Windows1254,
	"windows1255": charmap.Windows1255,
	"windows1256": charmap.Windows1256,
	"windows1257": charmap.Windows1257,
	"windows1258": charmap.Windows1258,
	"cp437":       charmap.CodePage437,
	"cp850":       charmap.CodePage850,
	"cp852":       charmap.CodePage852,
	"cp855":       charmap.CodePage855,
	"cp858":       charmap.CodePage858,
	"cp860":       charmap.CodePage860,
	"cp862":       charmap.CodePage862,
	"cp863":       charmap.CodePage863,
	"cp865":       charmap.CodePage865,
	"cp866":       charmap.CodePage866,
	"koi8r":       charmap.KOI8R,
	"koi8u":       charmap.KOI8U,
	"macintosh":   charmap.Macintosh,
	"maccyrillic": charmap.MacintoshCyrillic,
	"shiftjis":    japanese.ShiftJIS,
	"eucjp":       japanese.EUCJP,
	"gbk":         simplifiedchinese.GBK,
	"gb18030":     simplifiedchinese.GB18030,
	"euckr":       korean.EUCKR,
	"big5hkscs":   traditionalchinese.Big5,
}

// bomAware are the encodings with a byte order mark (the Strip BOM / Add BOM options).
var bomAware = map[string][]byte{
	"utf8":    {0xEF, 0xBB, 0xBF},
	"ucs2":    {0xFF, 0xFE},
	"utf16be": {0xFE, 0xFF},
	"utf16":   {0xFF, 0xFE},
	"utf32le": {0xFF, 0xFE, 0x00, 0x00},
	"utf32be": {0x00, 0x00, 0xFE, 0xFF},
	"utf32":   {0xFF, 0xFE, 0x00, 0x00},
}

// decode turns bytes into text; the BOM is stripped unless stripBOM is false.
func decode(data []byte, name string, stripBOM bool) (string, error) {
	switch name {
	case "binary", "latin1":
		r := make([]rune, len(data))
		for i, b := range data {
			r[i] = rune(b)
		}
		return string(r), nil
	case "ascii":
		r := make([]rune, len(data))
		for i, b := range data {
			r[i] = rune(b)
			if b > 0x7F {
				r[i] = '\uFFFD'
			}
		}
		return string(r), nil
	case "base64":
		return base64.StdEncoding.EncodeToString(data), nil
	case "hex":
		return hex.EncodeToString(data), nil
	}
	enc, ok := encodings[name]
	if !ok {
		return "", fmt.Errorf("Encoding not recognized: '%s'", name)
	}
	if bom, ok := bomAware[name]; ok && bytes.HasPrefix(data, bom) {
		data = data[len(bom):]
		if !stripBOM {
			// Keep the BOM as the character U+FEFF, as iconv-lite does.
			s, err := enc.NewDecoder().Bytes(data)
			return "\uFEFF" + string(s), err
		}
	}
	s, err := enc.NewDecoder().Bytes(data)
	return string(s), err
}

// encode turns text into bytes, with a BOM first when addBOM is set.
func encode(s, name string, addBOM bool) ([]byte, error) {
	switch name {
	case "binary", "latin1":
		out := make([]byte, 0, len(s))
		for _, r := range s {
			out = append(out, byte(r))
		}
		return out, nil
	case "ascii":
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0x7F {
				r = '?'
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "base64":
		return base64.StdEncoding.DecodeString(s)
	case "hex":
		return hex.DecodeString(s)
	}
	enc, ok := encodings[name]
	if !ok {
		return nil, fmt.Errorf("Encoding not recognized: '%s'", name)
	}
	b, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		return nil, err
	}
	if bom, ok := bomAware[name]; ok && addBOM && !bytes.HasPrefix(b, bom) {
		b = append(append([]byte{}, bom...), b...)
	}
	return b, nil
}
