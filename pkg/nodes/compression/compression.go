// Package compression is the Compression node (versions 1 and 1.1): it packs an item's binary
// files into one zip or gzips each, and unpacks zip and gzip files into binary properties. What
// it unpacks per run is capped (FLOWMILL_UNPACK_MAX_SIZE), so a zip bomb fails the node.
package compression

import (
	"context"
	_ "embed"
	"slices"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filetype"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

// alreadyCompressed are the extensions n8n stores in a zip without compressing them again.
var alreadyCompressed = []string{"7z", "aifc", "bz2", "doc", "docx", "gif", "gz", "heic", "heif", "jpg", "jpeg",
	"mov", "mp3", "mp4", "pdf", "png", "ppt", "pptx", "rar", "webm", "webp", "xls", "xlsx", "zip"}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	// The cap holds for the whole run, so many small archives cannot add up past it either.
	budget := &budget{left: ex.UnpackMaxBytes(), limit: ex.UnpackMaxBytes()}
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var binary map[string]workflow.BinaryData
		switch operation {
		case "decompress":
			binary, err = decompress(ctx, ex, item, i, budget)
		case "compress":
			binary, err = compress(ex, item, i)
		default:
			continue
		}
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &workflow.PairedItems{{Item: i}}})
			continue
		}
		json := item.JSON
		if json == nil {
			json = workflow.NewObject(0)
		}
		out = append(out, workflow.Item{JSON: json, Binary: binary, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return [][]workflow.Item{out}, nil
}

// propertyNames reads the comma-separated binary property names.
func propertyNames(ex *nodes.Execution, i int) ([]string, error) {
	s, err := ex.ParamString("binaryPropertyName", i)
	if err != nil {
		return nil, err
	}
	names := strings.Split(s, ",")
	for j := range names {
		names[j] = strings.TrimSpace(names[j])
	}
	return names, nil
}

// input reads one binary property as n8n's assertBinaryData and getBinaryDataBuffer do.
func input(item workflow.Item, name string, i int) (workflow.BinaryData, []byte, error) {
	if item.Binary == nil {
		return workflow.BinaryData{}, nil, nodes.Errorf(i, "No binary data exists on item!")
	}
	bin, ok := item.Binary[name]
	if !ok {
		return workflow.BinaryData{}, nil, &nodes.Error{
			Message:     "The item has no binary field '" + name + "' [item " + strconv.Itoa(i) + "]",
			Description: "Check that the parameter where you specified the input binary field name is correct, and that it matches a field in the binary input",
			ItemIndex:   i,
		}
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return workflow.BinaryData{}, nil, nodes.Errorf(i, "%v", err)
	}
	return bin, data, nil
}

func decompress(ctx context.Context, ex *nodes.Execution, item workflow.Item, i int, b *budget) (map[string]workflow.BinaryData, error) {
	names, err := propertyNames(ex, 0)
	if err != nil {
		return nil, err
	}
	prefix, err := ex.ParamString("outputPrefix", 0)
	if err != nil {
		return nil, err
	}
	out := map[string]workflow.BinaryData{}
	zipIndex := 0
	for index, name := range names {
		bin, data, err := input(item, name, i)
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(bin.FileExtension) {
		case "zip":
			files, err := unzip(ctx, data, b)
			if err != nil {
				return nil, nodes.Errorf(i, "%v", err)
			}
			for _, f := range files {
				// Archives made on macOS repeat their files under __MACOSX.
				if strings.Contains(f.name, "__MACOSX") {
					continue
				}
				out[prefix+strconv.Itoa(zipIndex)] = nodes.NewBinary(f.data, f.name, filetype.Detect(f.name, f.data))
				zipIndex++
			}
		case "gz", "gzip":
			data, err := gunzip(data, b)
			if err != nil {
				return nil, nodes.Errorf(i, "%v", err)
			}
			base := strings.Split(bin.FileName, ".")[0]
			var ext, mimeType string
			if strings.HasSuffix(bin.FileName, ".gz") {
				parts := strings.Split(strings.Replace(bin.FileName, ".gz", "", 1), ".")
				if len(parts) > 1 {
					ext = parts[len(parts)-1]
					mimeType = filetype.ByName("." + ext)
				}
			}
			if mimeType == "" {
				mimeType = filetype.Detect(base, data)
			}
			if ext == "" {
				ext = extensionOf(mimeType)
			}
			file := nodes.NewBinary(data, base, mimeType)
			file.FileName = base + "." + ext
			file.FileExtension = ext
			out[prefix+strconv.Itoa(index)] = file
		}
	}
	return out, nil
}

func compress(ex *nodes.Execution, item workflow.Item, i int) (map[string]workflow.BinaryData, error) {
	v11 := ex.TypeVersion() > 1
	optionsIndex := 0
	if v11 {
		optionsIndex = i
	}
	names, err := propertyNames(ex, optionsIndex)
	if err != nil {
		return nil, err
	}
	format, err := ex.ParamString("outputFormat", 0)
	if err != nil {
		return nil, err
	}
	out := map[string]workflow.BinaryData{}
	var entries []zipEntry
	for index, name := range names {
		bin, data, err := input(item, name, i)
		if err != nil {
			return nil, err
		}
		switch format {
		case "zip":
			entries = append(entries, zipEntry{name: bin.FileName, data: data, store: slices.Contains(alreadyCompressed, bin.FileExtension)})
		case "gzip":
			var property, filePath string
			base := strings.Split(bin.FileName, ".")[0]
			if v11 {
				prefix, err := ex.ParamOr("binaryPropertyOutput", i, "data")
				if err != nil {
					return nil, err
				}
				property = jsv.ToString(prefix)
				if index > 0 {
					property += strconv.Itoa(index)
				}
				fileName, err := ex.ParamString("fileName", i)
				if err != nil {
					return nil, err
				}
				if fileName != "" {
					base = strings.Replace(strings.Replace(fileName, ".gz", "", 1), ".gzip", "", 1)
				}
				ext := ""
				if bin.FileExtension != "" {
					ext = "." + strings.ToLower(bin.FileExtension)
				}
				filePath = base + ext + ".gz"
			} else {
				prefix, err := ex.ParamString("outputPrefix", 0)
				if err != nil {
					return nil, err
				}
				property = prefix + strconv.Itoa(index)
				filePath = base + ".gzip"
			}
			packed, err := gzipData(data)
			if err != nil {
				return nil, nodes.Errorf(i, "%v", err)
			}
			out[property] = nodes.NewBinary(packed, filePath, filetype.Detect(filePath, packed))
		}
	}
	if format == "zip" {
		fileName, err := ex.ParamString("fileName", optionsIndex)
		if err != nil {
			return nil, err
		}
		property, err := ex.ParamString("binaryPropertyOutput", optionsIndex)
		if err != nil {
			return nil, err
		}
		packed, err := zipData(entries)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		out = map[string]workflow.BinaryData{property: nodes.NewBinary(packed, fileName, filetype.Detect(fileName, packed))}
	}
	return out, nil
}

// extensionOf is the file extension the mime-types package gives a MIME type: its first one in
// mime-db, which for the common types is not the alphabetically first Go lists.
func extensionOf(mimeType string) string {
	if ext, ok := preferredExtensions[mimeType]; ok {
		return ext
	}
	if t := filetype.Extensions(mimeType); len(t) > 0 {
		return t[0]
	}
	return "false" // mime.extension answers false for an unknown type, which n8n prints
}

var preferredExtensions = map[string]string{
	"text/plain": "txt", "text/html": "html", "text/csv": "csv", "text/xml": "xml", "application/xml": "xml",
	"application/json": "json", "image/jpeg": "jpeg", "image/png": "png", "image/gif": "gif", "image/svg+xml": "svg",
	"application/pdf": "pdf", "application/zip": "zip", "application/gzip": "gz", "application/x-gzip": "gz",
	"application/octet-stream": "bin", "audio/mpeg": "mpga", "video/mp4": "mp4", "application/javascript": "js",
	"text/javascript": "js", "text/markdown": "md", "application/wasm": "wasm",
}
