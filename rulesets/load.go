package rulesets

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// Source is the text of a .rules file and the name its diagnostics give
// it: "rulesets/mesbg.rules" for a bundled ruleset, the path for a file.
type Source struct {
	Filename string
	Text     []byte
	Bundled  bool // one of Names, not a file
}

// IsPath reports whether ref is the path of a file rather than a bundled
// ruleset's name: it has a slash, or ends in .rules. Bundled names have
// neither.
func IsPath(ref string) bool {
	return strings.ContainsAny(ref, `/\`) || strings.HasSuffix(ref, ".rules")
}

// Read returns the source ref names: a bundled ruleset ("mesbg"), or a
// .rules file on the disk. A name that is neither a bundled ruleset nor a
// path is read as a file when one of that name exists, so that a file
// named without its extension still loads. A ruleset that is not there is
// an error that errors.Is finds as fs.ErrNotExist.
func Read(ref string) (Source, error) { return ReadFS(nil, ref) }

// ReadFS is Read with paths read from fsys (nil: the operating system's
// files), as the conformance runner reads a suite held in an fs.FS.
func ReadFS(fsys fs.FS, ref string) (Source, error) {
	if !IsPath(ref) {
		if src, err := bundled(ref); err == nil {
			return src, nil
		}
		if _, err := stat(fsys, ref); err != nil {
			return Source{}, unknown(ref)
		}
	}
	return readFile(fsys, ref)
}

// ReadFile reads the .rules file at path, never a bundled ruleset: a
// regular file, and no more of it than dsl.Parse accepts (a larger one is
// refused by the parser, which says so), so that a link to /dev/zero or a
// FIFO is an error and not a hang. Every .rules file turnorder reads, a
// ruleset, a scenario file or a setup, is read by it.
func ReadFile(path string) (Source, error) { return readFile(nil, path) }

// Parse reads and parses the ruleset ref names (see Read). A file with
// syntax errors is an error that is its dsl.Diagnostics.
func Parse(ref string) (*dsl.File, error) {
	src, err := Read(ref)
	if err != nil {
		return nil, err
	}
	f, diags := dsl.Parse(src.Filename, src.Text)
	if err := diags.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// Compile parses src and compiles its first ruleset. diags holds every
// warning and error found, sorted by position, for showing the author;
// err says why there is no Program: a file of scenarios alone, or the
// errors among diags (err is then those dsl.Diagnostics).
func Compile(src Source, opts ...runtime.Option) (p *runtime.Program, diags dsl.Diagnostics, err error) {
	f, diags := dsl.Parse(src.Filename, src.Text)
	if err := diags.Err(); err != nil {
		return nil, diags, err
	}
	all := f.Rulesets()
	if len(all) == 0 {
		return nil, diags, fmt.Errorf("%s has no ruleset (only scenarios)", src.Filename)
	}
	p, err = runtime.CompileRuleset(f, all[0], opts...)
	if err != nil {
		if ds, ok := errors.AsType[dsl.Diagnostics](err); ok {
			diags = append(diags, ds...)
			diags.Sort()
		}
		return nil, diags, err
	}
	diags = append(diags, p.Warnings()...)
	diags.Sort()
	return p, diags, nil
}

// Load reads and compiles the ruleset ref names: a bundled ruleset's
// name or the path of a .rules file (see Read and Compile). The error is
// a read error, or the dsl.Diagnostics of why it does not compile; the
// Program's warnings are p.Warnings().
func Load(ref string, opts ...runtime.Option) (*runtime.Program, error) {
	return LoadFS(nil, ref, opts...)
}

// LoadFS is Load with paths read from fsys (nil: the operating system's
// files).
func LoadFS(fsys fs.FS, ref string, opts ...runtime.Option) (*runtime.Program, error) {
	src, err := ReadFS(fsys, ref)
	if err != nil {
		return nil, err
	}
	// A Program is immutable: a bundled ruleset compiled without options
	// is compiled once, however many scenarios or battles load it.
	if src.Bundled && len(opts) == 0 {
		if p, ok := compiled.Load(ref); ok {
			return p.(*runtime.Program), nil
		}
	}
	p, _, err := Compile(src, opts...)
	if err == nil && src.Bundled && len(opts) == 0 {
		compiled.Store(ref, p)
	}
	return p, err
}

var compiled sync.Map // bundled name -> *runtime.Program

// bundled returns a bundled ruleset's source.
func bundled(name string) (Source, error) {
	text, err := fs.ReadFile(files, name+".rules")
	if err != nil || !fs.ValidPath(name) || IsPath(name) {
		return Source{}, unknown(name)
	}
	return Source{Filename: "rulesets/" + name + ".rules", Text: text, Bundled: true}, nil
}

func readFile(fsys fs.FS, path string) (Source, error) {
	info, err := stat(fsys, path)
	if err != nil {
		return Source{}, FileError(err)
	}
	if info.IsDir() {
		return Source{}, &ReadError{Path: path, msg: path + " is a directory; name a .rules file or a bundled ruleset (" + strings.Join(Names(), ", ") + ")"}
	}
	if !info.Mode().IsRegular() {
		return Source{}, &ReadError{Path: path, msg: path + " is not a regular file; name a .rules file"}
	}
	var f io.ReadCloser
	if fsys == nil {
		f, err = os.Open(path)
	} else {
		f, err = fsys.Open(path)
	}
	if err != nil {
		return Source{}, FileError(err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, dsl.MaxSourceBytes+1))
	if err != nil {
		return Source{}, FileError(err)
	}
	return Source{Filename: path, Text: text}, nil
}

func stat(fsys fs.FS, path string) (fs.FileInfo, error) {
	if fsys == nil {
		return os.Stat(path)
	}
	return fs.Stat(fsys, path)
}

// ReadError is a ruleset file that cannot be read, in the words turnorder
// uses for one: "x.rules: no such file or directory", not Go's "open
// x.rules: ...". It wraps the *fs.PathError, if there is one.
type ReadError struct {
	Path string
	Err  error
	msg  string
}

func (e *ReadError) Error() string { return e.msg }

func (e *ReadError) Unwrap() error { return e.Err }

// FileError words err, from reading a file, as a *ReadError when it is
// an *fs.PathError; any other error is returned as it is.
func FileError(err error) error {
	pe, ok := errors.AsType[*fs.PathError](err)
	if !ok {
		return err
	}
	why := pe.Err.Error()
	if errors.Is(pe.Err, fs.ErrNotExist) {
		why = "no such file or directory" // as the disk says it, for any fs.FS
	}
	return &ReadError{Path: pe.Path, Err: pe, msg: pe.Path + ": " + why}
}

// unknown is the error for a name that is no bundled ruleset and no file.
func unknown(name string) error {
	var mean string
	if s := dsl.Suggest(name, Names()); s != "" {
		mean = " (did you mean " + s + "?)"
	}
	return &UnknownError{Name: name, msg: fmt.Sprintf("unknown ruleset %q%s: the bundled rulesets are %s (or give the path of a .rules file)",
		name, mean, strings.Join(Names(), ", "))}
}

// UnknownError is a ruleset name that is neither bundled nor a file. It
// is fs.ErrNotExist to errors.Is, so that a host taking the name from a
// user (a bot's command) can tell "no such ruleset" from one that fails.
type UnknownError struct {
	Name string
	msg  string
}

func (e *UnknownError) Error() string { return e.msg }

func (e *UnknownError) Unwrap() error { return fs.ErrNotExist }
