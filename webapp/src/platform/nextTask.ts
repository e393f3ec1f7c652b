/**
 * Ends the current task: what comes after `await nextTask()` runs in a task of its own, after
 * whatever the browser has queued (a paint, input, React's work). For work split into tasks so that
 * none is a long task on a phone (issue 30, Total Blocking Time). (main.tsx keeps its own, which
 * prefers scheduler.yield: the entry imports nothing the app's chunks import; see its comment.)
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}
