// Asynchronous jobs (web-source training, document processing) advance with the injected clock:
// one stage per `stageMs`, then the last stage for good.
export function stageAt<T>(stages: readonly [T, ...T[]], startedAt: number, nowMs: number, stageMs: number): T {
  const index = Math.min(Math.max(0, Math.floor((nowMs - startedAt) / stageMs)), stages.length - 1);
  return stages[index] ?? stages[0];
}
