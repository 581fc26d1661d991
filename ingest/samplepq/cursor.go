package samplepq

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
)

// pages reads one column chunk's pages in turn.
type pages struct {
	name  string
	pages parquet.Pages // nil when the file lacks the column
	page  parquet.Page
	vals  parquet.ValueReader
}

func newPages(chunks []parquet.ColumnChunk, i int, name string) pages {
	if i < 0 || i >= len(chunks) {
		return pages{name: name}
	}
	return pages{name: name, pages: chunks[i].Pages()}
}

// next moves to the next page; release says whether the page read last
// may be given back to parquet-go (its values were copied out).
func (p *pages) next(release bool) error {
	if release && p.page != nil {
		parquet.Release(p.page)
	}
	p.page, p.vals = nil, nil
	pg, err := p.pages.ReadPage()
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("column %s ends before its row group", p.name)
	}
	if err != nil {
		return fmt.Errorf("column %s: %w", p.name, err)
	}
	if pg.NumNulls() > 0 {
		return fmt.Errorf("column %s has nulls", p.name)
	}
	p.page, p.vals = pg, pg.Values()
	return nil
}

func (p *pages) close() {
	if p.pages != nil {
		p.pages.Close()
	}
}

// numbers reads a numeric column into buf as int64, doubles by their bits.
type numbers struct {
	pages
	buf []int64
	i32 []int32
	f64 []float64
	any []parquet.Value
}

func newNumbers(chunks []parquet.ColumnChunk, i int, name string) *numbers {
	return &numbers{pages: newPages(chunks, i, name), buf: make([]int64, batch)}
}

// fill reads the next n values into buf[:n]; zeros when the column is absent.
func (c *numbers) fill(n int) error {
	if c.pages.pages == nil {
		clear(c.buf[:n])
		return nil
	}
	return c.pages.each(n, true, func(k int) (int, error) { return c.read(c.buf[k:n]) })
}

// each fills n values through read (which reads from value k on) page by
// page, opening the next page (release: giving the last one back) as one
// ends.
func (p *pages) each(n int, release bool, read func(k int) (int, error)) error {
	for k := 0; k < n; {
		if p.vals == nil {
			if err := p.next(release); err != nil {
				return err
			}
		}
		m, err := read(k)
		k += m
		if errors.Is(err, io.EOF) {
			p.vals = nil
		} else if err != nil {
			return fmt.Errorf("column %s: %w", p.name, err)
		} else if m == 0 {
			return fmt.Errorf("column %s: a page gives no values", p.name)
		}
	}
	return nil
}

// read reads into dst with the page's typed reader, or value by value.
func (c *numbers) read(dst []int64) (int, error) {
	switch r := c.vals.(type) {
	case parquet.Int64Reader:
		return r.ReadInt64s(dst)
	case parquet.Int32Reader:
		c.i32 = grow(c.i32, len(dst))
		n, err := r.ReadInt32s(c.i32[:len(dst)])
		for i, v := range c.i32[:n] {
			dst[i] = int64(v)
		}
		return n, err
	case parquet.DoubleReader:
		c.f64 = grow(c.f64, len(dst))
		n, err := r.ReadDoubles(c.f64[:len(dst)])
		for i, v := range c.f64[:n] {
			dst[i] = int64(math.Float64bits(v))
		}
		return n, err
	}
	return c.readValues(dst)
}

// readValues reads pages without a typed reader (dictionary-encoded numbers).
func (c *numbers) readValues(dst []int64) (int, error) {
	c.any = grow(c.any, len(dst))
	n, err := c.vals.ReadValues(c.any[:len(dst)])
	for i, v := range c.any[:n] {
		switch v.Kind() {
		case parquet.Int32:
			dst[i] = int64(v.Int32())
		case parquet.Double:
			dst[i] = int64(math.Float64bits(v.Double()))
		default:
			dst[i] = v.Int64()
		}
	}
	return n, err
}

// texts reads a string column's values, which point into its pages
// (or their dictionary): pages are not given back, as a batch's values
// may span two.
type texts struct {
	pages
	buf []parquet.Value
}

func newTexts(chunks []parquet.ColumnChunk, i int, name string) *texts {
	return &texts{pages: newPages(chunks, i, name), buf: make([]parquet.Value, batch)}
}

func (c *texts) fill(n int) error {
	if c.pages.pages == nil {
		clear(c.buf[:n])
		return nil
	}
	return c.pages.each(n, false, func(k int) (int, error) { return c.vals.ReadValues(c.buf[k:n]) })
}

// at is value r of the batch as bytes ("" for a null or absent value).
func (c *texts) at(r int) []byte { return c.buf[r].ByteArray() }

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
