// Where a V8 CPU profile (a .cpuprofile, as --cpu-prof and the inspector write it) spends its
// time: self time summed by module (source file or package) and by function.
import { ROOT } from './processes.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
  /** Of the time the process was busy (idle excluded). */
  share: number;
}

/** V8's own entries (GC, program), and code without a file: ajv's compiled validators, natives. */
function moduleOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) {
    if (/^\(.*\)$/.test(functionName)) return functionName;
    // ajv compiles each schema to a function named validate<N>, with no file.
    if (/^validate\d*$/.test(functionName)) return '(ajv compiled validators)';
    // Native functions, a system call such as a socket's writev among them: each by name.
    return `(native) ${functionName || '(anonymous)'}`;
  }
  const path = url.replace(/^file:\/\//, '').replace(ROOT, '');
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  return inPackage ? `${inPackage[1]} (${inPackage[2]})` : path;
}

/** The `top` largest self times by module and by function, in ms and as shares of busy time. */
export function selfTimes(
  profile: CpuProfile,
  top = 10,
): { modules: SelfTime[]; functions: SelfTime[]; busyMs: number } {
  const hits = new Map<number, number>();
  for (const id of profile.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
  const total = [...hits.values()].reduce((a, b) => a + b, 0);
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(total, 1);
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let idle = 0;
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? node.hitCount ?? 0;
    if (!count) continue;
    const frame = node.callFrame;
    if (frame.functionName === '(idle)') idle += count;
    const module = moduleOf(frame);
    byModule.set(module, (byModule.get(module) ?? 0) + count);
    const fn = frame.url
      ? `${frame.functionName || '(anonymous)'} ${module}:${frame.lineNumber + 1}`
      : module;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + count);
  }
  const busy = Math.max(total - idle, 1);
  const ranked = (counts: Map<string, number>) =>
    [...counts]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => ({
        name,
        ms: Math.round(count * msPerSample),
        share: Math.round((count / busy) * 1000) / 10,
      }));
  return {
    modules: ranked(byModule),
    functions: ranked(byFunction),
    busyMs: Math.round(busy * msPerSample),
  };
}
