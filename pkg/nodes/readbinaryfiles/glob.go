package readbinaryfiles

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Glob returns the files (not directories) matching pattern, sorted. Like fast-glob, names
// starting with a dot are only matched by a pattern segment that starts with a dot. Paths go
// through resolve (the instance's file fence): a relative pattern is relative to the files
// folder, a pattern whose fixed leading folder resolve refuses fails with that refusal, and
// matches it refuses (links leading out of the folder) are left out, as unreadable parts are.
func Glob(ctx context.Context, resolve func(string) (string, error), pattern string) ([]string, error) {
	pattern = filepath.ToSlash(pattern)
	base, rest := splitBase(pattern)
	if rest == "" {
		real, err := resolve(base)
		if err != nil {
			return nil, err
		}
		info, err := os.Stat(real)
		if err != nil || info.IsDir() {
			return nil, nil
		}
		return []string{base}, nil
	}
	re, err := compile(rest)
	if err != nil {
		return nil, err
	}
	root := base
	if root == "" {
		root = "."
	}
	root, err = resolve(root)
	if err != nil {
		return nil, err
	}
	var out []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are skipped, as fast-glob does
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if path == root {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(d.Name(), ".") && !dotAllowed(rest, rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && re.MatchString(rel) {
			if base == "" {
				out = append(out, rel)
			} else {
				out = append(out, filepath.ToSlash(filepath.Join(base, rel)))
			}
		}
		return nil
	})
	out = slices.DeleteFunc(out, func(path string) bool {
		_, err := resolve(path)
		return err != nil
	})
	slices.Sort(out)
	return out, err
}

// splitBase splits the leading segments without glob characters from the rest.
func splitBase(pattern string) (string, string) {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		if strings.ContainsAny(s, "*?[{") {
			return strings.Join(segs[:i], "/") + rootSlash(i, pattern), strings.Join(segs[i:], "/")
		}
	}
	return pattern, ""
}

func rootSlash(i int, pattern string) string {
	if i == 1 && strings.HasPrefix(pattern, "/") {
		return "/"
	}
	return ""
}

// dotAllowed reports whether the pattern names dot files explicitly in the segment that matches.
func dotAllowed(pattern, rel string) bool {
	depth := strings.Count(rel, "/")
	segs := strings.Split(pattern, "/")
	if depth < len(segs) && segs[depth] != "**" {
		return strings.HasPrefix(segs[depth], ".")
	}
	return false
}

// compile turns a glob into a regular expression over slash-separated relative paths.
func compile(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	inClass, braces := false, 0
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case inClass:
			if c == ']' {
				inClass = false
			}
			if c == '!' && glob[i-1] == '[' {
				c = '^'
			}
			b.WriteByte(c)
		case c == '*' && i+1 < len(glob) && glob[i+1] == '*':
			i++
			if i+1 < len(glob) && glob[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == '{':
			braces++
			b.WriteString("(?:")
		case c == '}' && braces > 0:
			braces--
			b.WriteString(")")
		case c == ',' && braces > 0:
			b.WriteString("|")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
