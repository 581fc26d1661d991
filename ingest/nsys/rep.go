package nsys

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/source"
)

func hasRepHeader(path string) bool {
	h, err := readHead(path, len(repMagic))
	return err == nil && bytes.HasPrefix(h, repMagic)
}

func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	m, err := io.ReadFull(f, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		err = nil
	}
	return buf[:m], err
}

// repVersion reads the nsys version from a report header:
// "NVIDIA Tegra Profiler Report 2025@1@1@110-251135451612v0." -> 2025.1.1.110.
func repVersion(head []byte) string {
	rest, ok := bytes.CutPrefix(head, repMagic)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(rest)), "-")
	if strings.ContainsFunc(v, func(r rune) bool { return r != '@' && (r < '0' || r > '9') }) {
		return ""
	}
	return strings.ReplaceAll(v, "@", ".")
}

// ExportCommand is the command that exports a report to SQLite by hand,
// its paths quoted for a POSIX shell.
func ExportCommand(path string) string {
	return "nsys export --type sqlite --output " + shellQuote(path+".sqlite") + " " + shellQuote(path)
}

// shellQuote returns s as one POSIX shell word: as is when it holds only
// characters no shell treats specially, else in single quotes, each
// single quote inside closed, escaped and reopened.
func shellQuote(s string) string {
	safe := s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r))
	})
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// exportRep returns the path of an SQLite export of report path: a cached
// one while the report is unchanged, else one nsys makes now.
func exportRep(ctx context.Context, path string) (string, error) {
	head, err := readHead(path, 256)
	if err != nil {
		return "", &source.FileError{Path: path, Offset: -1, Err: err}
	}
	if !bytes.HasPrefix(head, repMagic) {
		return "", &source.FileError{Path: path, Offset: 0, Unit: "byte", Err: errors.New("not an Nsight Systems report: no \"NVIDIA Tegra Profiler Report\" header")}
	}
	nsys, err := exec.LookPath("nsys")
	if err != nil {
		return "", &source.FileError{Path: path, Offset: -1, Err: fmt.Errorf(
			"an Nsight Systems %s report is a closed format and nsys is not on PATH; export it with `%s` and pass the .sqlite file",
			repVersion(head), ExportCommand(path))}
	}
	out, err := cachePath(path)
	if err != nil {
		return "", &source.FileError{Path: path, Offset: -1, Err: err}
	}
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := runExport(ctx, nsys, path, out); err != nil {
		return "", &source.FileError{Path: path, Offset: -1, Err: err}
	}
	return out, nil
}

// cachePath names the export of path for its current size and time, in
// nsys/ under the cache directory (source.CacheDir), else in the temp dir;
// never beside the report.
func cachePath(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	abs, _ := filepath.Abs(path)
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%d\x00%d", abs, fi.Size(), fi.ModTime().UnixNano())
	name := fmt.Sprintf("%s-%016x.sqlite", baseName(path), h.Sum64())
	dirs := []string{filepath.Join(os.TempDir(), "tpptrace-nsys")}
	if base, err := source.CacheDir(); err == nil {
		dirs = append([]string{filepath.Join(base, "nsys")}, dirs...)
	}
	for _, dir := range dirs {
		if source.Writable(dir) {
			return filepath.Join(dir, name), nil
		}
	}
	return "", errors.New("no writable folder for the SQLite export (the cache directory or the temp dir)")
}

// runExport runs nsys export into a temporary name and renames it, so
// that an interrupted export never looks like a cached one.
func runExport(ctx context.Context, nsys, path, out string) error {
	tmp := strings.TrimSuffix(out, ".sqlite") + fmt.Sprintf(".partial-%d.sqlite", os.Getpid())
	defer os.Remove(tmp)
	cmd := exec.CommandContext(ctx, nsys, "export", "--type", "sqlite", "--force-overwrite", "true", "--output", tmp, path)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("nsys export failed: %w: %s", err, lastLine(stderr.String()))
	}
	if _, err := os.Stat(tmp); err != nil {
		return fmt.Errorf("nsys export wrote no %s: %w", tmp, err)
	}
	return os.Rename(tmp, out)
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
