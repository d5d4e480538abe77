/*
 * Thrown by the Recorder when a run exceeds its step budget; unwinds the traced run, which the
 * Rust side then reports as a cut trace (the recorded prefix is kept).
 */
package tracer;

public final class StepBudgetExceeded extends Error {
    private static final long serialVersionUID = 1L;

    public StepBudgetExceeded(long maxSteps) {
        super("step budget of " + maxSteps + " exceeded", null, false, false);
    }
}
