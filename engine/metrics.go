package engine

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// The instruments [WithMeterProvider] records, under the meter
// "github.com/tooleval/tooleval/engine":
//
//	tooleval.decisions         counter: one per decision (one-shot,
//	                           explained or a session's batch), with
//	                           attribute outcome: allowed (every call),
//	                           refused (a call refused), errors (the
//	                           request or configuration has errors) or
//	                           failed (the evaluation failed; it refused
//	                           every call)
//	tooleval.decision.duration histogram, seconds: how long each took
const (
	meterName         = "github.com/tooleval/tooleval/engine"
	decisionsCounter  = "tooleval.decisions"
	durationHistogram = "tooleval.decision.duration"
)

// WithMeterProvider records a decision counter by outcome and a duration
// histogram through mp, an OpenTelemetry MeterProvider (the metric API
// only: the engine registers nothing globally and exports nothing
// itself).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(o *options) { o.meters = mp }
}

// meters are the engine's instruments; nil records nothing.
type meters struct {
	decisions metric.Int64Counter
	duration  metric.Float64Histogram
}

func newMeters(mp metric.MeterProvider) (*meters, error) {
	if mp == nil {
		return nil, nil
	}
	m := mp.Meter(meterName)
	decisions, err := m.Int64Counter(decisionsCounter, metric.WithDescription("decisions made, by outcome"), metric.WithUnit("{decision}"))
	if err != nil {
		return nil, fmt.Errorf("meter %s: %w", decisionsCounter, err)
	}
	duration, err := m.Float64Histogram(durationHistogram, metric.WithDescription("how long a decision took"), metric.WithUnit("s"))
	if err != nil {
		return nil, fmt.Errorf("meter %s: %w", durationHistogram, err)
	}
	return &meters{decisions: decisions, duration: duration}, nil
}

// decided records one decision that started at start.
func (m *meters) decided(ctx context.Context, start time.Time, d *Decision, err error) {
	if m == nil {
		return
	}
	outcome := "allowed"
	switch {
	case err != nil:
		outcome = "failed"
	case len(d.Errors) > 0:
		outcome = "errors"
	case !d.AllAllowed():
		outcome = "refused"
	}
	attrs := metric.WithAttributes(attribute.String("outcome", outcome))
	m.decisions.Add(ctx, 1, attrs)
	m.duration.Record(ctx, time.Since(start).Seconds(), attrs)
}
