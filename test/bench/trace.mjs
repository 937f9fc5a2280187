// Reads a Chromium trace (browser.startTracing) of one page to say WHERE the widget's main-thread work
// goes: per phase (between performance marks), the widget's forced style/layout with the function that
// forced it, its JS time by function from the sampling profiler, and every task of 50 ms or more that ran
// its code, with what the task spent its time on (script, style, layout, compiling). The widget is several
// files (the loader widget.js, the panel's file, a language's): each is named, and with the unminified
// builds and their source maps every line names its module.

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'disabled-by-default-v8.cpu_profiler',
  'disabled-by-default-v8.compile',
  'blink.user_timing',
];

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The numbers of one source-map segment (base64 VLQ). */
function decodeSegment(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

/**
 * line (0-based) -> module, from the source map of an unminified build: the source of the line's
 * first mapped segment (a line without one belongs to the module before it).
 */
export function moduleLines(map, toModule = (source) => source) {
  let source = 0;
  let current = '(bundle)';
  const byLine = map.mappings.split(';').map((line) => {
    let first;
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const fields = decodeSegment(segment);
      if (fields.length < 4) continue;
      source += fields[1];
      first ??= source;
    }
    if (first !== undefined) current = toModule(map.sources[first] ?? '(bundle)');
    return current;
  });
  return (line) => byLine[line] ?? '(bundle)';
}

/** Samples of the page's profile as { ts, dur, frames, line }: frames innermost first, line (1-based, 0 unknown) in the innermost. */
function samplesOf(events, pid) {
  const nodes = new Map();
  const out = [];
  let ts;
  for (const e of events) {
    if (e.pid !== pid) continue;
    if (e.name === 'Profile') ts = e.args.data.startTime;
    if (e.name !== 'ProfileChunk' || ts === undefined) continue;
    const { cpuProfile = {}, timeDeltas = [], lines = [] } = e.args.data;
    for (const node of cpuProfile.nodes ?? []) nodes.set(node.id, node);
    (cpuProfile.samples ?? []).forEach((id, i) => {
      ts += timeDeltas[i] ?? 0;
      out.push({ ts, id, line: lines[i] ?? 0 });
    });
  }
  out.sort((a, b) => a.ts - b.ts);
  return out.map((s, i) => {
    const frames = [];
    for (let node = nodes.get(s.id); node; node = nodes.get(node.parent)) frames.push(node.callFrame);
    // A sample stands for the time until the next one (capped, so idle gaps do not count).
    const next = out[i + 1]?.ts ?? s.ts;
    return { ts: s.ts, dur: Math.min(next - s.ts, 2000), frames, line: s.line };
  });
}

const ms = (us) => Math.round(us / 100) / 10;
const LONG_TASK_US = 50_000;
const basename = (url) => url.slice(url.lastIndexOf('/') + 1) || url;

/** The events of `main` inside `task` that match `keep` and are not nested in an earlier match. */
function outermost(main, task, keep) {
  const end = task.ts + task.dur;
  const found = [];
  let until = task.ts;
  for (const e of main) {
    if (e.ph !== 'X' || e === task || e.ts < until || e.ts >= end || !keep(e)) continue;
    found.push(e);
    until = e.ts + (e.dur ?? 0);
  }
  return found;
}

/**
 * What a task spent its time on: its outermost timeline events, biggest first (e.g. EvaluateScript
 * widget.js). `nameOf`: how the report names a script's URL.
 */
function partsOf(main, task, nameOf = basename) {
  return outermost(main, task, (e) => e.name !== 'RunTask' && e.cat.includes('devtools.timeline'))
    .map((e) => {
      const data = e.args?.data ?? {};
      const detail = data.url ? nameOf(data.url) : data.functionName || data.type || '';
      return { what: detail ? `${e.name} ${detail}` : e.name, ms: ms(e.dur ?? 0) };
    })
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 4);
}

/** Main-thread time a task spent compiling functions on first call: grows with the code that runs, not its work. */
function compileTime(main, task) {
  return ms(outermost(main, task, (e) => e.name === 'V8.CompileCode').reduce((sum, e) => sum + (e.dur ?? 0), 0));
}

/** Main-thread time a task spent on style and layout, forced by script or not. */
function styleLayoutTime(main, task) {
  return ms(outermost(main, task, (e) => e.name === 'Layout' || e.name === 'UpdateLayoutTree').reduce((sum, e) => sum + (e.dur ?? 0), 0));
}

/**
 * @param trace the JSON of browser.stopTracing()
 * @param scripts the widget's files as the page loaded them: `url`; `name`, how the report calls the file
 *   (and the file its quoted lines are in); `moduleOf`, line -> module for an unminified build (without
 *   it, all the file's code is `name`); `code`, that build's source, to quote the line where a function
 *   spends its time. A frame of any other URL is not the widget's.
 * @param marks performance.mark names that start each phase after the first ('load')
 */
export function analyzeTrace(trace, { scripts, marks }) {
  const events = trace.traceEvents ?? trace;
  const markEvents = events.filter((e) => marks.includes(e.name) && e.cat.includes('blink.user_timing'));
  const first = markEvents[0];
  if (!first) throw new Error(`no ${marks.join('/')} mark in the trace`);
  const { pid, tid } = first;
  const main = events.filter((e) => e.pid === pid && e.tid === tid).sort((a, b) => a.ts - b.ts);
  const navigation = main.filter((e) => e.name === 'navigationStart' && e.ts < first.ts).at(-1)?.ts ?? main[0]?.ts ?? 0;
  const bounds = [navigation, ...marks.map((m) => markEvents.find((e) => e.name === m)?.ts ?? Infinity), Infinity];
  const phases = ['load', ...marks].map((name, i) => ({ name, from: bounds[i], to: bounds[i + 1] }));

  /**
   * The module a frame's code belongs to. `line`: the line running in it (1-based), known when it is the
   * innermost frame; the bundle's wrapper function runs every module's top-level statements, so there
   * the running line names the module.
   */
  const byUrl = new Map(scripts.map((script) => [script.url, { ...script, lines: script.code?.split('\n') }]));
  const fileOf = (frame) => byUrl.get(frame.url);
  const moduleAt = (frame, line) => {
    const { name, moduleOf } = fileOf(frame);
    if (!moduleOf) return name;
    const module = moduleOf(frame.lineNumber);
    return module === '(bundle)' && line > 0 ? moduleOf(line - 1) : module;
  };
  const where = (frame, line) => {
    const module = moduleAt(frame, line);
    const { moduleOf } = fileOf(frame);
    if (moduleOf && moduleOf(frame.lineNumber) === '(bundle)') return `top-level code of ${module}`;
    // Anonymous functions get their line in the unminified build (bench-results/*.debug.js).
    const name = frame.functionName || `(anonymous ${fileOf(frame).name}:${frame.lineNumber + 1})`;
    return `${name} (${module})`;
  };
  const ours = (frame) => byUrl.has(frame.url);
  const nameOf = (url) => byUrl.get(url)?.name ?? basename(url);
  const names = scripts.map((script) => script.name);
  const samples = samplesOf(events, pid);
  const inWidget = samples
    .map((s) => {
      const frame = s.frames.find(ours);
      return { ...s, frame, line: frame === s.frames[0] ? s.line : 0 };
    })
    .filter((s) => s.frame !== undefined);

  /** The biggest totals by key; with the source, also the line where most of an entry's own time went. */
  const top = (list, n, keyOf) => {
    const totals = new Map();
    for (const s of list) {
      const entry = totals.get(keyOf(s)) ?? { us: 0, lines: new Map() };
      entry.us += s.dur;
      if (s.line > 0) {
        const at = `${s.frame.url}#${s.line}`;
        entry.lines.set(at, (entry.lines.get(at) ?? 0) + s.dur);
      }
      totals.set(keyOf(s), entry);
    }
    return [...totals]
      .sort((a, b) => b[1].us - a[1].us)
      .slice(0, n)
      .map(([name, { us, lines }]) => {
        const [at, lineUs = 0] = [...lines].sort((a, b) => b[1] - a[1])[0] ?? [];
        if (at === undefined || lineUs < us / 2) return { name, ms: ms(us) };
        const [url, line] = [at.slice(0, at.lastIndexOf('#')), Number(at.slice(at.lastIndexOf('#') + 1))];
        const file = byUrl.get(url);
        const text = file?.lines?.[line - 1]?.trim().slice(0, 90);
        return { name, ms: ms(us), ...(text ? { hotLine: { file: file.name, line, text } } : {}) };
      });
  };
  const topFunctions = (list, n) => top(list, n, (s) => where(s.frame, s.line));

  return phases.map(({ name, from, to }) => {
    const within = (e) => e.ts >= from && e.ts < to;
    const forced = main
      .filter((e) => within(e) && (e.name === 'Layout' || e.name === 'UpdateLayoutTree'))
      .map((e) => ({ e, frame: (e.args?.beginData?.stackTrace ?? []).find(ours) }))
      .filter((f) => f.frame !== undefined)
      .map(({ e, frame }) => ({
        kind: e.name === 'Layout' ? 'layout' : 'style',
        ms: ms(e.dur ?? 0),
        // Trace stack frames count lines from 1 and point at the call; the profiler's count from 0.
        by: where({ ...frame, lineNumber: frame.lineNumber - 1 }, frame.lineNumber),
      }));
    const phaseSamples = inWidget.filter(within);
    // Every long task that ran the widget's code or loaded one of its files (others are the page's, or the
    // bench driving it), longest first.
    const tasks = main
      .filter((e) => within(e) && e.name === 'RunTask' && e.ph === 'X' && e.dur >= LONG_TASK_US)
      .map((task) => ({ task, js: phaseSamples.filter((s) => s.ts >= task.ts && s.ts < task.ts + task.dur) }))
      .filter(({ task, js }) => js.length > 0 || partsOf(main, task, nameOf).some((p) => names.some((name) => p.what.includes(name))))
      .sort((a, b) => b.task.dur - a.task.dur)
      .map(({ task, js }) => ({
        ms: ms(task.dur),
        atMs: ms(task.ts - navigation),
        compileMs: compileTime(main, task),
        styleLayoutMs: styleLayoutTime(main, task),
        widgetJsMs: ms(js.reduce((sum, s) => sum + s.dur, 0)),
        parts: partsOf(main, task, nameOf),
        top: topFunctions(js, 3),
      }));
    return {
      phase: name,
      widgetJsMs: ms(phaseSamples.reduce((sum, s) => sum + s.dur, 0)),
      topFunctions: topFunctions(phaseSamples, 6),
      topModules: top(phaseSamples, 6, (s) => moduleAt(s.frame, s.line)),
      forced,
      longestTasks: tasks,
    };
  });
}
