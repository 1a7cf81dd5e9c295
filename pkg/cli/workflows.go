package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// workflowFile is a workflow as n8n's export:workflow writes it and import:workflow reads it.
type workflowFile struct {
	ID          json.RawMessage `json:"id"`
	Name        string          `json:"name"`
	Active      bool            `json:"active"`
	Nodes       json.RawMessage `json:"nodes"`
	Connections json.RawMessage `json:"connections"`
	Settings    json.RawMessage `json:"settings"`
	StaticData  json.RawMessage `json:"staticData"`
	PinData     json.RawMessage `json:"pinData,omitempty"`
	VersionID   string          `json:"versionId,omitempty"`
	CreatedAt   *time.Time      `json:"createdAt,omitempty"`
	UpdatedAt   *time.Time      `json:"updatedAt,omitempty"`
	Tags        []tagFile       `json:"tags"`
}

type tagFile struct {
	ID        json.RawMessage `json:"id,omitempty"`
	Name      string          `json:"name"`
	CreatedAt *time.Time      `json:"createdAt,omitempty"`
	UpdatedAt *time.Time      `json:"updatedAt,omitempty"`
}

// flags is a command's flag set, printing its usage to stderr.
func flags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return errHelpShown
	} else if err != nil {
		return usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func importWorkflows(ctx context.Context, env *Env, args []string) error {
	items, err := importedItems(flags("import:workflow", env.Stderr), args, "workflows")
	if err != nil {
		return err
	}
	in, err := env.open(ctx)
	if err != nil {
		return err
	}
	limits := in.Config.WorkflowLimits()
	ws := make([]store.Workflow, len(items))
	for i, it := range items {
		var f workflowFile
		if err := json.Unmarshal(it.raw, &f); err != nil {
			return usagef("%s: not an n8n workflow: %v", it.where(), err)
		}
		id, err := stringID(f.ID)
		if err != nil {
			return usagef("%s: %v", it.where(), err)
		}
		if strings.TrimSpace(f.Name) == "" {
			return usagef("%s: the workflow has no name", it.where())
		}
		// The document as the editor and the runs read it: size, node count, nodes and
		// connections are checked as for any workflow that enters.
		if _, err := limits.Parse(it.raw); err != nil {
			return usagef("%s, workflow %q: %v", it.where(), f.Name, err)
		}
		w := store.Workflow{ID: id, Name: strings.TrimSpace(f.Name), Nodes: store.JSON(f.Nodes),
			Connections: store.JSON(f.Connections), Settings: nonNull(f.Settings), StaticData: nonNull(f.StaticData),
			PinData: nonNull(f.PinData)}
		if f.CreatedAt != nil {
			w.CreatedAt = f.CreatedAt.UTC()
		}
		for _, t := range f.Tags {
			if name := strings.TrimSpace(t.Name); name != "" {
				w.Tags = append(w.Tags, store.Tag{Name: name})
			}
		}
		ws[i] = w
	}
	owner, err := env.owner(ctx)
	if err != nil {
		return err
	}
	if err := in.Store.ImportWorkflows(ctx, ws, owner.ID); err != nil {
		var ie *store.ImportError
		if errors.As(err, &ie) {
			return fmt.Errorf("%s, workflow %q: %w; nothing was imported", items[ie.Index].where(), ws[ie.Index].Name, ie.Err)
		}
		return fmt.Errorf("%w; nothing was imported", err)
	}
	// Workflows that were active here before are not any more: every process drops their
	// triggers and webhooks.
	for _, w := range ws {
		if err := trigger.Announce(ctx, in.Redis, w.ID); err != nil {
			fmt.Fprintf(env.Stderr, "workflow %s: telling the other processes failed (they notice within seconds): %v\n", w.ID, err)
		}
	}
	fmt.Fprintf(env.Stderr, "Successfully imported %d %s (inactive: activate with update:workflow --active=true).\n",
		len(ws), plural(len(ws), "workflow", "workflows"))
	return nil
}

func nonNull(raw json.RawMessage) store.JSON {
	if t := strings.TrimSpace(string(raw)); t == "" || t == "null" {
		return nil
	}
	return store.JSON(raw)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// selection reads --all and --id, one of which is required.
func selection(fs *flag.FlagSet) (all *bool, id *string) {
	return fs.Bool("all", false, "every one"), fs.String("id", "", "only the one with this id")
}

// exportFlags are the flags n8n's export commands share; noun names what one file holds.
type exportFlags struct {
	all, pretty, separate *bool
	id, output            *string
}

// exportSelection declares the shared export flags on fs (--backup is --all --pretty --separate).
func exportSelection(fs *flag.FlagSet, noun string) (*exportFlags, *bool) {
	all, id := selection(fs)
	output := fs.String("output", "", "file to write (stdout without it), or folder with --separate")
	fs.StringVar(output, "o", "", "shorthand for --output")
	f := &exportFlags{all: all, id: id, output: output,
		pretty:   fs.Bool("pretty", false, "indent the JSON"),
		separate: fs.Bool("separate", false, "one file per "+noun+", ID.json, in the folder --output")}
	return f, fs.Bool("backup", false, "--all --pretty --separate")
}

// parseExport parses args into f and checks the selection.
func parseExport(fs *flag.FlagSet, args []string, f *exportFlags, backup *bool) error {
	if err := parse(fs, args); err != nil {
		return err
	}
	if *backup {
		*f.all, *f.pretty, *f.separate = true, true, true
	}
	return checkSelection(*f.all, *f.id)
}

func checkSelection(all bool, id string) error {
	switch {
	case all && id != "":
		return usagef("--all and --id exclude each other")
	case !all && id == "":
		return usagef("--all or --id is required")
	}
	return nil
}

func exportWorkflows(ctx context.Context, env *Env, args []string) error {
	fs := flags("export:workflow", env.Stderr)
	sel, backup := exportSelection(fs, "workflow")
	if err := parseExport(fs, args, sel, backup); err != nil {
		return err
	}
	in, err := env.open(ctx)
	if err != nil {
		return err
	}
	owner, err := env.owner(ctx)
	if err != nil {
		return err
	}
	var ws []store.Workflow
	if *sel.all {
		list, err := in.Store.ListWorkflows(ctx, owner, store.WorkflowFilter{})
		if err != nil {
			return err
		}
		// The list leaves out the documents: read each whole.
		for _, w := range list {
			full, err := in.Store.GetWorkflow(ctx, w.ID)
			if err != nil {
				return err
			}
			ws = append(ws, *full)
		}
	} else {
		w, err := in.Store.GetWorkflow(ctx, *sel.id)
		if err != nil {
			return err
		}
		ws = append(ws, *w)
	}
	if len(ws) == 0 {
		return errors.New("no workflows found")
	}
	names := make([]string, len(ws))
	files := make([]any, len(ws))
	for i, w := range ws {
		names[i] = w.ID
		files[i] = toWorkflowFile(w)
	}
	return env.writeItems(*sel.output, *sel.separate, *sel.pretty, names, files)
}

func toWorkflowFile(w store.Workflow) workflowFile {
	idJSON, _ := json.Marshal(w.ID)
	created, updated := w.CreatedAt.UTC(), w.UpdatedAt.UTC()
	f := workflowFile{ID: idJSON, Name: w.Name, Active: w.Active, Nodes: rawOr(w.Nodes, "[]"),
		Connections: rawOr(w.Connections, "{}"), Settings: rawOr(w.Settings, "null"),
		StaticData: rawOr(w.StaticData, "null"), VersionID: w.VersionID, CreatedAt: &created, UpdatedAt: &updated,
		Tags: []tagFile{}}
	if len(w.PinData) > 0 {
		f.PinData = json.RawMessage(w.PinData)
	}
	for _, t := range w.Tags {
		tid, _ := json.Marshal(t.ID)
		tc, tu := t.CreatedAt.UTC(), t.UpdatedAt.UTC()
		f.Tags = append(f.Tags, tagFile{ID: tid, Name: t.Name, CreatedAt: &tc, UpdatedAt: &tu})
	}
	return f
}

func rawOr(j store.JSON, empty string) json.RawMessage {
	if len(j) == 0 {
		return json.RawMessage(empty)
	}
	return json.RawMessage(j)
}

func updateWorkflows(ctx context.Context, env *Env, args []string) error {
	fs := flags("update:workflow", env.Stderr)
	all, id := selection(fs)
	active := fs.String("active", "", "true or false")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := checkSelection(*all, *id); err != nil {
		return err
	}
	var want bool
	switch *active {
	case "true":
		want = true
	case "false":
	default:
		return usagef("--active=true or --active=false is required")
	}
	in, err := env.open(ctx)
	if err != nil {
		return err
	}
	owner, err := env.owner(ctx)
	if err != nil {
		return err
	}
	ids := []string{*id}
	if *all {
		list, err := in.Store.ListWorkflows(ctx, owner, store.WorkflowFilter{})
		if err != nil {
			return err
		}
		ids = ids[:0]
		for _, w := range list {
			ids = append(ids, w.ID)
		}
	}
	act := &trigger.Activation{Store: in.Store, Redis: in.Redis, Registry: in.Nodes, Evaluator: in.Eval, Logger: in.Log}
	var failed []string
	for _, wid := range ids {
		w, err := act.SetActive(ctx, owner, wid, want)
		if err != nil {
			failed = append(failed, fmt.Sprintf("workflow %s: %v", wid, err))
			continue
		}
		fmt.Fprintf(env.Stderr, "Workflow %s (%q) is %s.\n", w.ID, w.Name, map[bool]string{true: "active", false: "inactive"}[w.Active])
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d not changed: %s", len(failed), len(ids), strings.Join(failed, "; "))
	}
	return nil
}
