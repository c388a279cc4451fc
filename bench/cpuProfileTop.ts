// Reads a V8 .cpuprofile (node --cpu-prof) and prints self time by function and by file, per call.
//   node --import tsx bench/cpuProfileTop.ts FILE.cpuprofile [calls]
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A .cpuprofile's content. */
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Shortens a file URL to the package (or our source) and file name. */
function shortFile(url: string): string {
  if (url === '') return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length).replace(/\/dist\//, ':');
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '');
}

/**
 * A sample's weight: the time since the previous sample, capped. On a loaded machine
 * the process is descheduled between samples and the whole gap would land on the
 * frame it stopped in (most often a syscall such as writev), so gaps count as at
 * most MAX_SAMPLE_US.
 */
const MAX_SAMPLE_US = 1000;

/** Self time (µs) per key of the profile's samples. */
function selfTimes(profile: Profile, key: (node: ProfileNode) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const k = key(node);
    out.set(k, (out.get(k) ?? 0) + Math.min(MAX_SAMPLE_US, profile.timeDeltas[i] ?? 0));
  });
  return out;
}

/** Prints the top self-time entries of `file`, in µs per call when `calls` is given. */
export async function printTop(file: string, calls?: number, top = 25): Promise<void> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const idle = new Set(['(idle)', '(program)', '(garbage collector)']);
  const fn = selfTimes(profile, (n) => {
    const f = n.callFrame;
    return `${f.functionName || '(anonymous)'} ${shortFile(f.url)}:${f.lineNumber + 1}`;
  });
  const byFile = selfTimes(profile, (n) =>
    idle.has(n.callFrame.functionName) ? n.callFrame.functionName : shortFile(n.callFrame.url),
  );
  const busy = [...byFile].filter(([k]) => k !== '(idle)').reduce((s, [, v]) => s + v, 0);
  const per = (us: number): string => (calls ? `${(us / calls).toFixed(1)} µs/call` : `${(us / 1000).toFixed(0)} ms`);
  console.log(`busy CPU ${(busy / 1000).toFixed(0)} ms${calls ? `, ${(busy / calls).toFixed(1)} µs per call` : ''}`);
  const print = (title: string, map: Map<string, number>): void => {
    console.log(`\n-- top self time by ${title} --`);
    const rows = [...map].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]);
    for (const [k, v] of rows.slice(0, top))
      console.log(`${((100 * v) / busy).toFixed(1).padStart(5)}%  ${per(v).padStart(16)}  ${k}`);
  };
  print('file', byFile);
  print('function', fn);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: cpuProfileTop.ts FILE.cpuprofile [calls]');
  await printTop(file, process.argv[3] ? Number(process.argv[3]) : undefined);
}
