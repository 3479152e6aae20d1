import os from 'node:os';

/** One line naming the machine a benchmark ran on, printed above its figures. */
export function describeMachine(): string {
  const cpus = os.cpus();
  const memory = `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM`;
  return `machine: ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'}), ${memory}, node ${process.version}, ${os.platform()} ${os.arch()}`;
}
