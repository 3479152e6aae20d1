import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Fields of /proc/<pid>/stat after the command name in parentheses (state is the first). */
function statFields(path: string): string[] {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The nice value of every thread of a process (Linux); a thread that ends while being listed is left out. */
export function threadNiceValues(pid: number): number[] {
  const values: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let fields: string[];
    try {
      fields = statFields(`/proc/${pid}/task/${tid}/stat`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    // nice is field 19 of stat, the 17th after the command name.
    values.push(Number(fields[16]));
  }
  return values;
}

/** The session a process belongs to (Linux): its own pid when it leads a session of its own. */
export function sessionOf(pid: number): number {
  return Number(statFields(`/proc/${pid}/stat`)[3]);
}

/** Whether the kernel schedules by session first (autogroup). */
export function autogroupsOn(): boolean {
  const flag = '/proc/sys/kernel/sched_autogroup_enabled';
  return existsSync(flag) && readFileSync(flag, 'utf8').trim() === '1';
}

/**
 * The nice value of a process's session group, or null without autogroups. A process in init's session (as under
 * some CI runners) is in the root group, whose autogroup file is empty: the root group has the default weight, nice 0.
 */
export function autogroupNice(pid: number): number | null {
  if (!autogroupsOn()) return null;
  const shown = readFileSync(`/proc/${pid}/autogroup`, 'utf8').trim();
  if (shown === '') return 0;
  const match = / nice (-?\d+)$/.exec(shown);
  if (!match) throw new Error(`unexpected /proc/${pid}/autogroup: ${shown}`);
  return Number(match[1]);
}
