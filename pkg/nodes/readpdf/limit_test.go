package readpdf_test

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/readpdf"
)

// A content stream that inflates past the limit fails the read before any text is extracted.
func TestExtractUnpackLimit(t *testing.T) {
	t.Parallel()
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write([]byte("BT /F1 12 Tf 72 720 Td (" + strings.Repeat("a", 5000) + ") Tj ET"))
	w.Close()
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", z.Len(), z.Bytes()),
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
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)

	out, err := readpdf.Extract(b.Bytes(), "", 1<<20)
	require.NoError(t, err)
	require.Len(t, out.Get("text"), 5000)
	_, err = readpdf.Extract(b.Bytes(), "", 1000)
	require.EqualError(t, err, "The PDF unpacks to more than 1000 bytes, the limit for reading a PDF (FLOWMILL_UNPACK_MAX_SIZE)")
}
