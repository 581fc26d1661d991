package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tpptrace/tpptrace/ingest/dataset"
	"github.com/tpptrace/tpptrace/ingest/source"
	"github.com/tpptrace/tpptrace/model"
)

// Load reads paths (trace files, directories of them, or dataset
// directories) into one validated trace. Directories are expanded
// recursively; files that no format claims, and files that fail to read
// while others succeed, are recorded in Trace.Skipped. Load fails only when
// nothing could be read, when ranks clash, or when the merged trace breaks
// the model's invariants.
func Load(ctx context.Context, paths []string, opts source.Options) (*model.Trace, error) {
	in, err := expand(paths)
	if err != nil {
		return nil, err
	}
	parts, errs := readDatasets(in.datasets)
	groups, skipped := sniffAll(in.files, Formats())
	for _, d := range in.sharded {
		t, trailing, err := readSharded(d)
		if err != nil {
			return nil, err
		}
		parts = append(parts, t)
		skipped.Skipped = append(trailing, skipped.Skipped...)
	}
	warnSkips(opts, paths, skipped.Skipped, in.skipped)
	for _, f := range Formats() {
		if len(groups[f.Name]) == 0 {
			continue
		}
		tr, err := f.Read(ctx, groups[f.Name], opts)
		if err != nil {
			var dup *model.DuplicateRankError
			if ctx.Err() != nil || errors.As(err, &dup) || errors.Is(err, source.ErrMemoryBudget) {
				return nil, errors.Join(ctx.Err(), err)
			}
			errs = append(errs, fmt.Errorf("%s: %w", f.Name, err))
			skipped.Skipped = append(skipped.Skipped, groupSkips(groups[f.Name], f.Name, err)...)
			continue
		}
		if err := source.CheckMemory(opts.MaxMemory); err != nil {
			return nil, fmt.Errorf("%s: after reading %d files: %w", f.Name, len(groups[f.Name]), err)
		}
		parts = append(parts, tr)
	}
	return finish(parts, skipped, in.skipped, errs)
}

// finish merges the parts, or explains why there is nothing to merge.
func finish(parts []*model.Trace, skipped *model.Trace, walkSkips []model.Skip, errs []error) (*model.Trace, error) {
	if len(parts) == 0 {
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		return nil, noInputError(skipped, walkSkips)
	}
	skipped.Skipped = append(skipped.Skipped, walkSkips...)
	t, err := model.MergeOwned(append(parts, skipped)...)
	if err != nil {
		return nil, err
	}
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("the merged trace is invalid: %w", err)
	}
	return t, nil
}

func noInputError(skipped *model.Trace, walkSkips []model.Skip) error {
	all := append(append([]model.Skip{}, skipped.Skipped...), walkSkips...)
	if len(all) == 0 {
		return errors.New("no input files")
	}
	var b strings.Builder
	b.WriteString("no readable trace among the inputs:")
	for i, s := range all {
		if i == 5 {
			fmt.Fprintf(&b, "\n  ... and %d more", len(all)-5)
			break
		}
		fmt.Fprintf(&b, "\n  %s: %s", s.Source, s.Reason)
	}
	return errors.New(b.String())
}

// groupSkips records every file of a group whose reader failed as a whole.
func groupSkips(paths []string, format string, err error) []model.Skip {
	out := make([]model.Skip, len(paths))
	for i, p := range paths {
		out[i] = model.Skip{Source: p, Offset: -1, Reason: format + " reader failed: " + err.Error(), Count: 1}
	}
	return out
}

// readDatasets reads each dataset directory.
func readDatasets(dirs []string) ([]*model.Trace, []error) {
	var parts []*model.Trace
	var errs []error
	for _, d := range dirs {
		if t, _, err := dataset.Read(d); err != nil {
			errs = append(errs, err)
		} else {
			parts = append(parts, t)
		}
	}
	return parts, errs
}

// warnSkips names on the warning channel every file the walk passed over
// (links not followed, nested datasets) and every unrecognised file given
// by name or named like a trace; the other unrecognised files of a
// directory (notes, scripts) are only recorded.
func warnSkips(opts source.Options, given []string, sniffed, walked []model.Skip) {
	if opts.Warn == nil {
		return
	}
	for _, s := range walked {
		opts.Warn(fmt.Sprintf("skipping %s: %s", s.Source, s.Reason))
	}
	for _, s := range sniffed {
		if traceLike(s.Source) || slices.Contains(given, s.Source) {
			opts.Warn(fmt.Sprintf("skipping %s: %s", s.Source, s.Reason))
		}
	}
}

// MayHoldEvents reports whether trace files among paths could hold
// minEvents events as LoadRankedCold estimates them: their uncompressed
// sizes at the fewest bytes an event of any format it reads takes. No
// means LoadRankedCold would not build an entry for paths, so a caller
// that falls back to LoadCached may skip it (and its sniffing of every
// file). A path that cannot be expanded says yes: the read says what is
// wrong.
func MayHoldEvents(paths []string, minEvents int64) bool {
	if minEvents <= 0 {
		return true
	}
	in, err := expand(paths)
	if err != nil {
		return true
	}
	var sum int64
	for _, f := range in.files {
		sum += uncompressedSize(f)
	}
	return sum/min(KinetoBytesPerEvent, NsysBytesPerEvent) >= minEvents
}
