package observe_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile-loop/internal/loop"
	"github.com/smile-loop/smile-loop/internal/observe"
)

// BenchmarkDeliveryLatency measures emit → observer receive (8.S1) over a real loopback
// WebSocket, one event at a time, with 1 and 10 observers. "unthrottled" measures the
// pipeline alone; "throttled" uses the default 10 frames/s with events 100ms apart (a
// busy but realistic run), so no event waits for a slot.
func BenchmarkDeliveryLatency(b *testing.B) {
	for _, mode := range []struct {
		name string
		rate float64
		gap  time.Duration
	}{{"unthrottled", 1e9, 0}, {"throttled", 0, 101 * time.Millisecond}} {
		for _, n := range []int{1, 10} {
			b.Run(fmt.Sprintf("%s/observers=%d", mode.name, n), func(b *testing.B) {
				benchLatency(b, n, mode.rate, mode.gap)
			})
		}
	}
}

func benchLatency(b *testing.B, observers int, rate float64, gap time.Duration) {
	hub, srv := startHub(b, observe.HubOptions{MaxRate: rate})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	type sample struct{ seq, ns int64 }
	got := make(chan sample, 1024)
	var emitted sync.Map // seq → emit time in ns
	var wg sync.WaitGroup
	for range observers {
		c := dial(b, wsURL(srv))
		if _, _, err := c.Read(ctx); err != nil { // connected
			b.Fatal(err)
		}
		wg.Go(func() {
			for {
				_, raw, err := c.Read(ctx)
				if err != nil {
					return
				}
				now := time.Now().UnixNano()
				var w struct {
					Data loop.IterationStartData `json:"data"`
				}
				if json.Unmarshal(raw, &w) != nil {
					continue
				}
				t0, ok := emitted.Load(int64(w.Data.Iteration))
				if ok {
					got <- sample{int64(w.Data.Iteration), now - t0.(int64)}
				}
			}
		})
	}

	time.Sleep(gap) // the connected frame took this second's first slot
	var lat []time.Duration
	seq := int64(0)
	for b.Loop() {
		seq++
		emitted.Store(seq, time.Now().UnixNano())
		hub.Emit(loop.NewEvent(loop.EventIterationStart, loop.IterationStartData{Iteration: int(seq)}))
		for range observers {
			s := <-got
			lat = append(lat, time.Duration(s.ns))
		}
		if gap > 0 {
			time.Sleep(gap)
		}
	}
	b.StopTimer()
	cancel()
	wg.Wait()
	slices.Sort(lat)
	b.ReportMetric(float64(pct(lat, 50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(pct(lat, 99).Microseconds()), "p99-µs")
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[(len(sorted)-1)*p/100]
}

// BenchmarkEmit measures what an Emit costs the loop (8.S3) with no observer and with 10
// observers attached and reading as fast as they can. Observers stay attached (reported as
// "observers" at the end) so the comparison is fair.
func BenchmarkEmit(b *testing.B) {
	for _, n := range []int{0, 10} {
		b.Run(fmt.Sprintf("observers=%d", n), func(b *testing.B) {
			hub, srv := startHub(b, observe.HubOptions{MaxRate: 1e9, MaxBacklog: 1 << 22})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for range n {
				c := dial(b, wsURL(srv))
				go func() {
					for {
						if _, _, err := c.Read(ctx); err != nil {
							return
						}
					}
				}()
			}
			for hub.Observers() < n {
				time.Sleep(time.Millisecond)
			}
			rec := loop.CommandRecord{Iteration: 1, Step: "Install", Line: 12, Command: "npm install", ExitCode: 0,
				Duration: 3 * time.Second, Output: "added 120 packages in 3s"}
			b.ReportAllocs()
			for b.Loop() {
				hub.Emit(loop.NewEvent(loop.EventCommand, rec))
			}
			b.StopTimer()
			b.ReportMetric(float64(hub.Observers()), "observers")
		})
	}
}

// BenchmarkLoopThroughput runs a simulated loop — per op one plan step: step_start, three
// commands each "taking" 1ms in the sandbox, step_end, a state change — with the default
// hub settings, with no observer and with 10 observers reading. 8.S3 asks for the same
// steps/s in both.
func BenchmarkLoopThroughput(b *testing.B) {
	for _, n := range []int{0, 10} {
		b.Run(fmt.Sprintf("observers=%d", n), func(b *testing.B) {
			hub, srv := startHub(b, observe.HubOptions{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for range n {
				c := dial(b, wsURL(srv))
				go func() {
					for {
						if _, _, err := c.Read(ctx); err != nil {
							return
						}
					}
				}()
			}
			for hub.Observers() < n {
				time.Sleep(time.Millisecond)
			}
			step := 0
			start := time.Now()
			for b.Loop() {
				step++
				name := fmt.Sprint("step ", step)
				hub.Emit(loop.NewEvent(loop.EventStepStart, loop.StepData{Step: name, Line: step}))
				for i := range 3 {
					time.Sleep(time.Millisecond) // the command runs in the container
					hub.Emit(loop.NewEvent(loop.EventCommand, loop.CommandRecord{Iteration: 1, Step: name, Line: step,
						Command: fmt.Sprint("make target-", i), Output: "ok", Duration: time.Millisecond}))
				}
				hub.Emit(loop.NewEvent(loop.EventStepEnd, loop.StepData{Step: name, Line: step, OK: true}))
				hub.Emit(loop.NewEvent(loop.EventStateChange, loop.StateChangeData{Status: loop.StatusRunning, Phase: loop.PhaseStudent, Iteration: 1}))
			}
			b.ReportMetric(float64(step)/time.Since(start).Seconds(), "steps/s")
			b.ReportMetric(float64(hub.Observers()), "observers")
		})
	}
}
