// CPU time (user + system, ms) of the child processes this process has waited for, from
// /proc/self/stat (Linux; elsewhere undefined). On a loaded machine a step's wall time says
// more about the neighbours than about the step; its CPU time does not.
import { readFileSync } from 'node:fs';

/** Children's CPU time so far in ms, or undefined where /proc is not there. */
export function childCpuMs() {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing paren):
    // state is field 3; cutime and cstime are fields 16 and 17, in clock ticks (USER_HZ, 100 on Linux).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}
