// This file holds the memory side of `ragraf index`: the Go runtime's soft
// limit set from max_memory_mb, and --memprofile, a heap profile written at
// the build's peak of live heap.

package cli

import (
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"time"
)

// setMemoryLimit makes max_memory_mb the Go runtime's soft memory limit, so
// the collector works harder instead of letting the heap grow past the
// budget; GOMEMLIMIT, when the environment sets it, wins.
func setMemoryLimit(mb int) {
	if mb <= 0 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(int64(mb) << 20)
}

// peakProfiler samples the live heap (as the last collection marked it) and, each time it reaches a new peak
// (10 % over the last one written), writes the in-use heap profile to path:
// the file left at the end shows what the heap held at its peak.
type peakProfiler struct {
	path     string
	log      *slog.Logger
	stop     chan struct{}
	done     sync.WaitGroup
	peak     uint64
	peakHeld uint64
}

func startPeakProfiler(path string, log *slog.Logger) *peakProfiler {
	runtime.MemProfileRate = 64 << 10
	p := &peakProfiler{path: path, log: log, stop: make(chan struct{})}
	p.done.Add(1)
	go p.run()
	return p
}

func (p *peakProfiler) run() {
	defer p.done.Done()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	var written uint64
	for {
		select {
		case <-p.stop:
			if written == 0 {
				p.write()
			}
			return
		case <-t.C:
		}
		metrics.Read(sample)
		live := sample[0].Value.Uint64()
		if live > p.peak {
			p.peak = live
		}
		// what the Go runtime holds from the OS; the rest of the RSS is C
		// (tree-sitter, SQLite)
		if held := sample[1].Value.Uint64() - sample[2].Value.Uint64(); held > p.peakHeld {
			p.peakHeld = held
		}
		if live > written+written/10 {
			// the profile is that of the last collection: collect now so
			// it is the heap just sampled
			runtime.GC()
			p.write()
			written = live
			p.log.Debug("heap profile written", "live_heap_mb", live>>20)
		}
	}
}

func (p *peakProfiler) write() {
	f, err := os.Create(p.path)
	if err != nil {
		p.log.Warn("writing heap profile", "err", err.Error())
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		p.log.Warn("writing heap profile", "err", err.Error())
	}
}

// Stage writes the in-use heap profile at the end of a build stage to
// path.STAGE (extracted, resolved, summarised, trained, written): what each
// phase leaves live. A file's "parsing PATH" is not a stage here.
func (p *peakProfiler) Stage(stage string) {
	switch stage {
	case "extracted", "resolved", "summarised", "trained", "written":
	default:
		return
	}
	runtime.GC()
	f, err := os.Create(p.path + "." + stage)
	if err != nil {
		p.log.Warn("writing heap profile", "err", err.Error())
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		p.log.Warn("writing heap profile", "err", err.Error())
	}
}

// Stop ends the sampling and logs the peak live heap seen.
func (p *peakProfiler) Stop() {
	close(p.stop)
	p.done.Wait()
	p.log.Info("heap profile", "path", p.path, "peak_live_heap_mb", p.peak>>20, "peak_go_held_mb", p.peakHeld>>20)
}
