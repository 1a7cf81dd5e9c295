package readpdf_test

import (
	"bytes"
	"crypto/md5"
	"crypto/rc4"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/readpdf"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

var pad = []byte("\x28\xbf\x4e\x5e\x4e\x75\x8a\x41\x64\x00\x4e\x56\xff\xfa\x01\x08\x2e\x2e\x00\xb6\xd0\x68\x3e\x80\x2f\x0c\xa9\xfe\x64\x53\x69\x7a")

func xorKey(key []byte, i int) []byte {
	out := make([]byte, len(key))
	for j, c := range key {
		out[j] = c ^ byte(i)
	}
	return out
}

func padded(pw string) []byte { return append([]byte(pw), pad...)[:32] }

func rc4x(key, b []byte) []byte {
	c, _ := rc4.NewCipher(key)
	out := make([]byte, len(b))
	c.XORKeyStream(out, b)
	return out
}

// makePDF writes a one-page PDF with two lines of text and an Info dictionary whose keys are
// not sorted; with a user password it is encrypted with the standard security handler
// (revision 3, 128-bit RC4).
func makePDF(userPassword string) []byte {
	id := []byte("0123456789abcdef")
	var key, o []byte
	enc := func(num int, b []byte) []byte { return b }
	if userPassword != "" {
		// algorithm 3: the O entry from the owner password
		ok := md5.Sum(padded("owner"))
		for range 50 {
			ok = md5.Sum(ok[:])
		}
		o = padded(userPassword)
		for i := range 20 {
			o = rc4x(xorKey(ok[:], i), o)
		}
		// algorithm 2: the file key
		h := md5.New()
		h.Write(padded(userPassword))
		h.Write(o)
		h.Write([]byte{0xfc, 0xff, 0xff, 0xff}) // P = -4
		h.Write(id)
		k := h.Sum(nil)
		for range 50 {
			s := md5.Sum(k)
			k = s[:]
		}
		key = k
		enc = func(num int, b []byte) []byte {
			k := md5.Sum(append(append([]byte{}, key...), byte(num), byte(num>>8), byte(num>>16), 0, 0))
			return rc4x(k[:], b)
		}
	}
	str := func(num int, s string) string { return fmt.Sprintf("<%x>", enc(num, []byte(s))) }
	content := enc(4, []byte("BT /F1 12 Tf 72 720 Td (Hello PDF) Tj 0 -20 Td (Second line) Tj ET"))
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R /Lang " + str(1, "en-GB") + " >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		"<< /Title " + str(6, "Report") + " /Producer " + str(6, "Tests") + " /Trapped /False /Pages " + str(6, "one") + " >>",
	}
	if userPassword != "" {
		// algorithm 5: the U entry
		u := md5.Sum(append(append([]byte{}, pad...), id...))
		uu := u[:]
		for i := range 20 {
			uu = rc4x(xorKey(key, i), uu)
		}
		uu = append(uu, make([]byte, 16)...)
		objs = append(objs, fmt.Sprintf("<< /Filter /Standard /V 2 /R 3 /Length 128 /O <%x> /U <%x> /P -4 >>", o, uu))
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, obj := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, obj)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f\r\n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n\r\n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info 6 0 R /ID [<%x> <%x>]", len(objs)+1, id, id)
	if userPassword != "" {
		fmt.Fprintf(&b, " /Encrypt %d 0 R", len(objs))
	}
	fmt.Fprintf(&b, " >>\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}

func pdfItem(data []byte) []workflow.Item {
	b := nodes.NewBinary(data, "doc.pdf", "application/pdf")
	return []workflow.Item{{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{"data": b}}}
}

func TestReadPDF(t *testing.T) {
	t.Parallel()
	info := func(filter any) m {
		return m{"PDFFormatVersion": "1.4", "Language": "en-GB", "EncryptFilterName": filter, "IsLinearized": false,
			"IsAcroFormPresent": false, "IsXFAPresent": false, "IsCollectionPresent": false, "IsSignaturesPresent": false,
			"Title": "Report", "Producer": "Tests", "Trapped": m{"name": "False"}, "Custom": m{"Pages": "one"}}
	}
	want := func(filter any) []m {
		return []m{{"numpages": 1.0, "numrender": 1.0, "info": info(filter), "text": "Hello PDF\nSecond line", "version": "2.16.105"}}
	}
	tests := []struct {
		name     string
		params   m
		in       []workflow.Item
		want     []m
		errorMsg string
	}{
		{"plain", m{}, pdfItem(makePDF("")), want(nil), ""},
		{"encrypted with password", m{"encrypted": true, "password": "secret"}, pdfItem(makePDF("secret")), want("Standard"), ""},
		{"encrypted without password", m{}, pdfItem(makePDF("secret")), nil, "No password given"},
		{"wrong password", m{"encrypted": true, "password": "nope"}, pdfItem(makePDF("secret")), nil, "Incorrect Password"},
		{"40-bit encryption", m{"encrypted": true, "password": "secret"}, pdfItem(bytes.Replace(makePDF("secret"), []byte("/V 2 /R 3 /Length 128"), []byte("/V 1 /R 2 /Length 40 "), 1)), nil,
			"This PDF's encryption is not supported (40-bit RC4)"},
		{"not a PDF", m{}, pdfItem([]byte("hello")), nil, "Invalid PDF structure: not a PDF file: invalid header"},
		{"truncated", m{}, pdfItem(makePDF("")[:300]), nil, "Invalid PDF structure: not a PDF file: missing %%EOF"},
		{"no binary property", m{"binaryPropertyName": "file"}, pdfItem(makePDF("")), nil, `Item has no binary property called "file"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, readpdf.Type(), nodetest.Node{Parameters: tc.params}, tc.in)
			if tc.errorMsg != "" {
				require.Equal(t, tc.errorMsg, nodetest.NodeError(t, err).Message)
				return
			}
			require.NoError(t, err)
			nodetest.RequireJSONs(t, tc.want, out[0])
			require.Equal(t, [][]string{{"numpages", "numrender", "info", "text", "version"}}, nodetest.Keys(out[0]))
			keys := out[0][0].JSON.Get("info").(*workflow.Object).Keys()
			require.Equal(t, []string{"Title", "Producer", "Trapped", "Custom"}, keys[8:], "Info keys in the file's order")
			require.Contains(t, out[0][0].Binary, "data", "binary data passes through")
		})
	}
}

func TestReadPDFContinueOnFail(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, readpdf.Type(), nodetest.Node{ContinueOnFail: true}, pdfItem([]byte("x")))
	require.NoError(t, err)
	require.Equal(t, []m{{"error": "Invalid PDF structure: not a PDF file: invalid header"}}, nodetest.JSONs(out[0]))
}
