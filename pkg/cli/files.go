package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// item is one workflow or credential read from an input file, with where it came from.
type item struct {
	file string
	// index is its place in the file's array, -1 when the file holds it alone.
	index int
	raw   json.RawMessage
}

// where names the item for an error message: the file, and its place in the file's array.
func (it item) where() string {
	if it.index < 0 {
		return it.file
	}
	return fmt.Sprintf("%s (item %d)", it.file, it.index+1)
}

// maxInputFile is the largest input file read, in bytes.
const maxInputFile = 256 << 20

// readItems reads --input: a file holding a JSON array of kind (or one object), or with
// separate a folder whose *.json files are read the same way, in name order.
// importedItems declares n8n's import flags (--input, -i, --separate) on fs, parses args and reads
// the items they name.
func importedItems(fs *flag.FlagSet, args []string, kind string) ([]item, error) {
	input := fs.String("input", "", "file to import, or folder with --separate")
	fs.StringVar(input, "i", "", "shorthand for --input")
	separate := fs.Bool("separate", false, "import every *.json file of the folder --input")
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	return readItems(*input, *separate, kind)
}

func readItems(input string, separate bool, kind string) ([]item, error) {
	if input == "" {
		return nil, usagef("--input is required: a file, or a folder with --separate")
	}
	fi, err := os.Stat(input)
	if err != nil {
		return nil, usagef("--input: %v", err)
	}
	var files []string
	switch {
	case separate && !fi.IsDir():
		return nil, usagef("--input %s is a file; --separate reads every *.json file of a folder", input)
	case separate:
		if files, err = filepath.Glob(filepath.Join(input, "*.json")); err != nil {
			return nil, usagef("--input: %v", err)
		}
		slices.Sort(files)
		if len(files) == 0 {
			return nil, usagef("--input %s holds no *.json file", input)
		}
	case fi.IsDir():
		return nil, usagef("--input %s is a folder; add --separate to read every *.json file in it", input)
	default:
		files = []string{input}
	}
	var items []item
	for _, f := range files {
		its, err := readFile(f, kind)
		if err != nil {
			return nil, err
		}
		items = append(items, its...)
	}
	return items, nil
}

func readFile(path, kind string) ([]item, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	if fi.Size() > maxInputFile {
		return nil, usagef("%s: %d bytes is more than the %d MiB a file may have", path, fi.Size(), maxInputFile>>20)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	b = bytes.TrimSpace(b)
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		return nil, usagef("%s: not valid JSON: %v", path, err)
	}
	switch {
	case len(b) > 0 && b[0] == '[':
		var raws []json.RawMessage
		if err := json.Unmarshal(b, &raws); err != nil {
			return nil, usagef("%s: %v", path, err)
		}
		items := make([]item, len(raws))
		for i, r := range raws {
			if t := bytes.TrimSpace(r); len(t) == 0 || t[0] != '{' {
				return nil, usagef("%s (item %d): not a JSON object; the file must hold %s", path, i+1, kind)
			}
			items[i] = item{file: path, index: i, raw: r}
		}
		return items, nil
	case len(b) > 0 && b[0] == '{':
		return []item{{file: path, index: -1, raw: b}}, nil
	}
	return nil, usagef("%s: the file must hold %s: a JSON array of them, or one object", path, kind)
}

// stringID reads an id written as a string or, by older n8n releases, as a number.
func stringID(raw json.RawMessage) (string, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(t, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(t, &n); err == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf("id must be a string or a number, not %s", t)
}

// writeItems writes an export: with separate one file per item (name[i].json) into the folder
// output, which is created when missing; otherwise one JSON array to the file output, or to
// stdout when output is empty. pretty indents by two spaces, as n8n does.
func (e *Env) writeItems(output string, separate, pretty bool, names []string, items []any) error {
	encode := func(v any) ([]byte, error) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if pretty {
			enc.SetIndent("", "  ")
		}
		err := enc.Encode(v)
		return buf.Bytes(), err
	}
	if separate {
		if output == "" {
			return usagef("--separate needs --output, the folder to write one file per item into")
		}
		if fi, err := os.Stat(output); err == nil && !fi.IsDir() {
			return usagef("--output %s is a file; --separate writes into a folder", output)
		}
		if err := os.MkdirAll(output, 0o755); err != nil {
			return fmt.Errorf("--output: %w", err)
		}
		for i, it := range items {
			b, err := encode(it)
			if err != nil {
				return err
			}
			name := strings.NewReplacer("/", "_", "\\", "_").Replace(names[i]) + ".json"
			if err := os.WriteFile(filepath.Join(output, name), b, 0o600); err != nil {
				return fmt.Errorf("write %s: %w", name, err)
			}
		}
		fmt.Fprintf(e.Stderr, "Exported %d to %s\n", len(items), output)
		return nil
	}
	b, err := encode(items)
	if err != nil {
		return err
	}
	if output == "" {
		_, err := e.Stdout.Write(b)
		return err
	}
	if fi, err := os.Stat(output); err == nil && fi.IsDir() {
		return usagef("--output %s is a folder; give a file name, or add --separate", output)
	}
	if err := os.WriteFile(output, b, 0o600); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	fmt.Fprintf(e.Stderr, "Exported %d to %s\n", len(items), output)
	return nil
}
