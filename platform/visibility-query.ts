/**
 * Temporal's list filter is a SQL-like string; a value put into it is a string literal, quoted
 * and escaped here, so a task queue or id containing a quote can neither break the query nor
 * widen it (`x' OR TaskQueue != '`).
 */
export function visibilityString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The runs on one task queue. */
export function runsOnTaskQueue(taskQueue: string): string {
  return `TaskQueue = ${visibilityString(taskQueue)}`;
}
