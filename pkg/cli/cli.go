// Package cli is the command line of every Flowmill binary: --help and --version, and n8n's
// commands for moving workflows and credentials in and out of an instance (import:workflow,
// export:workflow, import:credentials, export:credentials, update:workflow) and running a
// stored workflow (execute --id, on bin/worker). File formats are n8n's, so an n8n export
// imports here and a Flowmill export imports into n8n. Commands read the database and the
// encryption key from the usual settings (FLOWMILL_DATABASE_URL or the SQLite file in
// FLOWMILL_DATA_DIR, FLOWMILL_ENCRYPTION_KEY or the key in the data folder).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/infra"
)

// Program describes one binary.
type Program struct {
	// Name is the binary's role: api, worker or scheduler.
	Name string
	// Summary says in one line what the binary does when started without a command.
	Summary string
	// Version is the release, set at build time.
	Version string
	// Serve runs the process itself with the remaining arguments (settings as --name=value).
	Serve func(args []string) error
	// Execute, when set, is the execute command (bin/worker); it returns the exit status.
	Execute func(args []string, stdout, stderr io.Writer) int
}

// command is one of n8n's commands.
type command struct {
	name, summary string
	run           func(ctx context.Context, env *Env, args []string) error
}

var commands = []command{
	{"import:workflow", "import workflows from --input FILE (a JSON array, or one workflow) or, with --separate, every *.json file in the folder --input", importWorkflows},
	{"export:workflow", "export --all workflows or one (--id ID) to --output FILE (stdout without it) or, with --separate, one ID.json file each into the folder --output; --pretty indents", exportWorkflows},
	{"import:credentials", "import credentials from --input FILE or, with --separate, a folder; data that is an object is encrypted with this instance's key", importCredentials},
	{"export:credentials", "export --all credentials or one (--id ID) like export:workflow; --decrypted writes their data in clear", exportCredentials},
	{"update:workflow", "activate or deactivate one workflow (--id ID) or --all: --active=true|false", updateWorkflows},
}

// ExitUsage is the exit status of a command line that cannot be understood or a file that
// cannot be read; 1 is a command that failed otherwise.
const ExitUsage = 2

// Main runs the binary described by p with args (os.Args[1:]) and returns its exit status.
func Main(p Program, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "--help" || a == "-h" || a == "help":
			usage(p, stdout)
			return 0
		case a == "--version" || a == "-v" || a == "version":
			fmt.Fprintf(stdout, "flowmill %s %s\n", p.Name, p.Version)
			return 0
		case a == "execute":
			if p.Execute == nil {
				fmt.Fprintf(stderr, "flowmill %s: execute runs on bin/worker (bin/worker execute --id ID or --file FILE)\n", p.Name)
				return ExitUsage
			}
			return p.Execute(args[1:], stdout, stderr)
		case strings.Contains(a, ":") && !strings.HasPrefix(a, "-"):
			return runCommand(p, a, args[1:], stdout, stderr)
		}
	}
	if err := p.Serve(args); err != nil {
		fmt.Fprintf(stderr, "flowmill %s: %s\n", p.Name, infra.OneLine(err))
		return 1
	}
	return 0
}

func runCommand(p Program, name string, args []string, stdout, stderr io.Writer) int {
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	if i < 0 {
		fmt.Fprintf(stderr, "flowmill %s: unknown command %q (bin/%s --help lists them)\n", p.Name, name, p.Name)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := &Env{Stdout: stdout, Stderr: stderr, process: p.Name}
	defer env.close()
	err := commands[i].run(ctx, env, args)
	if err == nil || errors.Is(err, errHelpShown) {
		return 0
	}
	fmt.Fprintf(stderr, "flowmill %s %s: %s\n", p.Name, name, infra.OneLine(err))
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	return 1
}

// errHelpShown means a command printed its flags for -h or --help.
var errHelpShown = errors.New("help shown")

// usageError is a command line or input file that cannot be used as it is.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

func usage(p Program, w io.Writer) {
	fmt.Fprintf(w, "flowmill %s %s: %s\n\n", p.Name, p.Version, p.Summary)
	fmt.Fprintf(w, "Usage:\n")
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  bin/%s [--setting=value ...]\tstart the %s\n", p.Name, p.Name)
	fmt.Fprintf(tw, "  bin/%s COMMAND [flags]\trun a command and exit\n", p.Name)
	fmt.Fprintf(tw, "  bin/%s --help | --version\n", p.Name)
	_ = tw.Flush()
	fmt.Fprintf(w, "\nCommands (n8n's names, flags and file formats):\n")
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	if p.Execute != nil {
		fmt.Fprintf(tw, "  %s\t%s\n", "execute", "run the stored workflow --id ID and print its result, or the file --file FILE without any services (--mode, --input, --timezone)")
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nCommands take the database and encryption key from the settings below (environment only).\n")
	fmt.Fprintf(w, "\nSettings (environment variable, or the flag when starting; default):\n")
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	for _, s := range config.Settings() {
		def := s.Default
		if def == "" {
			def = "(empty)"
		}
		fmt.Fprintf(tw, "  %s\t--%s\t%s\n", s.Env, s.Flag, def)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "\nREADME.md, \"Settings\", says what each one does.\n")
}
