/*
 * Thrown by the Recorder when recording a run's heap would pass its recording budget (values
 * in the heap log); unwinds the traced run, which the Rust side then reports as cut by that
 * budget (the recorded prefix is kept).
 */
package tracer;

public final class HeapBudgetExceeded extends Error {
    private static final long serialVersionUID = 1L;

    public HeapBudgetExceeded(long maxHeap) {
        super("recording budget of " + maxHeap + " heap values exceeded", null, false, false);
    }
}
