// Benchmark probe, installed with Page.addScriptToEvaluateOnNewDocument so it runs before the app's
// own scripts. It only observes: long tasks, the WebAssembly memories the page instantiates, and
// when the app shell and the gallery first reach the DOM. `window.__bench.timed` times one action
// from outside the app: until the DOM shows its effect, then until the next animation frame.
(() => {
  const bench = (window.__bench = { longTasks: [], memories: [], marks: {} });

  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push([entry.startTime, entry.startTime + entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (error) {
    bench.longTaskError = String(error);
  }

  // Every module's linear memory: the app's, and any module it loads later.
  const remember = (result) => {
    const instance = result instanceof WebAssembly.Instance ? result : result?.instance;
    for (const value of Object.values(instance?.exports ?? {})) {
      if (value instanceof WebAssembly.Memory && !bench.memories.includes(value)) bench.memories.push(value);
    }
    return result;
  };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    if (typeof original === 'function') {
      WebAssembly[name] = function (...args) {
        return original.apply(this, args).then(remember);
      };
    }
  }
  addEventListener('TrunkApplicationStarted', () => {
    bench.marks.started ??= performance.now();
  });

  // Milestones, then the observer goes away so it never weighs on later measurements.
  const galleryWanted = location.hash.includes('gallery');
  const milestones = new MutationObserver(() => {
    const now = performance.now();
    if (bench.marks.shell === undefined && document.querySelector('[data-testid=chat-input]')) bench.marks.shell = now;
    if (galleryWanted && bench.marks.gallery === undefined) {
      const cells = document.querySelectorAll('.au-gallery-page__widget');
      if (cells.length > 0 && [...cells].every((cell) => cell.firstElementChild)) {
        bench.marks.gallery = now;
        bench.marks.galleryWidgets = cells.length;
        requestAnimationFrame(() => {
          bench.marks.galleryFrame = performance.now();
        });
      }
    }
    if (bench.marks.shell !== undefined && (!galleryWanted || bench.marks.gallery !== undefined)) milestones.disconnect();
  });
  milestones.observe(document, { childList: true, subtree: true });

  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
  const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // A new task without setTimeout's 4 ms clamp: everything the app queued as microtasks has run.
  const task = () =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    });

  // Runs `act`; `ready()` says whether the DOM shows its effect. Resolves with milliseconds from the
  // start to: `returned` (act's promise settled), `dom` (the first mutation after which `ready()`
  // holds), `frame` (the next animation frame after that). Mutations are recorded until `settleMs`
  // after that frame; `scope()` names the element allowed to change (nodes touched outside it are
  // counted apart).
  bench.timed = ({ act, ready, scope = () => null, settleMs = 0, timeoutMs = 20000 }) =>
    new Promise((resolve, reject) => {
      const records = [];
      let start, dom, frame, returned, value, failed;
      const observer = new MutationObserver((list) => {
        for (const record of list) records.push(record);
        if (dom === undefined && ready()) {
          dom = performance.now() - start;
          nextFrame().then((at) => {
            frame = at - start;
            finish();
          });
        }
      });
      const timer = setTimeout(() => {
        observer.disconnect();
        reject(new Error(`timed out after ${timeoutMs} ms (returned: ${returned}, dom: ${dom}, error: ${failed})`));
      }, timeoutMs);
      const finish = async () => {
        if (frame === undefined || returned === undefined) return;
        clearTimeout(timer);
        await settle(settleMs);
        for (const record of observer.takeRecords()) records.push(record);
        observer.disconnect();
        if (failed !== undefined) return reject(new Error(failed));
        const within = scope();
        const touched = new Set();
        const outside = new Set();
        for (const record of records) {
          const nodes = [record.target, ...record.addedNodes, ...record.removedNodes];
          for (const node of nodes) touched.add(node);
          if (!within || !within.contains(record.target)) {
            for (const node of nodes) outside.add(node);
          }
        }
        const describe = (node) =>
          node.nodeType === Node.ELEMENT_NODE
            ? `${node.tagName.toLowerCase()}${node.className ? '.' + String(node.className).split(' ')[0] : ''}`
            : `#${node.nodeName.replace('#', '')}`;
        resolve({
          returned,
          dom,
          frame,
          value,
          touched: touched.size,
          outside: outside.size,
          outsideSample: [...outside].slice(0, 5).map(describe),
        });
      };
      observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
      start = performance.now();
      Promise.resolve()
        .then(act)
        .then(
          (result) => {
            value = result;
          },
          (error) => {
            failed = String(error?.message ?? error);
          },
        )
        .finally(() => {
          returned = performance.now() - start;
          if (failed !== undefined && dom === undefined) {
            clearTimeout(timer);
            observer.disconnect();
            reject(new Error(failed));
            return;
          }
          finish();
        });
    });

  // Calls a tool of the page's model context the way another agent would, and parses its result.
  bench.callTool = async (name, input) => {
    const context = document.modelContext;
    const text = await context.executeTool(name, input);
    const result = JSON.parse(text);
    if (result.isError) throw new Error(`${name} failed: ${text.slice(0, 500)}`);
    return result;
  };

  bench.widgetIds = () => [...document.querySelectorAll('[data-testid=widget]')].map((frame) => frame.dataset.widgetId);

  // A frame that was not on the canvas before (and, for tables, has its rows).
  bench.newWidget = (before, needsRows) => {
    for (const frame of document.querySelectorAll('[data-testid=widget]')) {
      if (before.has(frame.dataset.widgetId)) continue;
      if (!needsRows || frame.querySelector('tr.au-data-table__row')) return frame;
    }
    return null;
  };

  // Times `widget_display`: from the call to the new widget in the DOM and to the next frame.
  bench.display = (name, params, settleMs = 0) => {
    const before = new Set(bench.widgetIds());
    const needsRows = name === 'data-table';
    return bench.timed({
      act: () => bench.callTool('widget_display', { name, params }),
      ready: () => bench.newWidget(before, needsRows) !== null,
      settleMs,
    });
  };

  // A deterministic table of `count` deputies in scrambled order, so sorting has work to do.
  const GROUPS = ['RN', 'EPR', 'LFI', 'SOC', 'DR'];
  bench.table = (count) => ({
    title: `Deputies (${count})`,
    columns: [
      { key: 'name', label: 'Name' },
      { key: 'group', label: 'Group' },
      { key: 'votes', label: 'Votes', type: 'number' },
      { key: 'attendance', label: 'Attendance', type: 'number' },
      { key: 'present', label: 'Present', type: 'boolean' },
      { key: 'page', label: 'Page', type: 'link' },
    ],
    rows: Array.from({ length: count }, (_, i) => {
      const scrambled = (i * 7919) % count;
      return {
        name: `Deputy ${scrambled}`,
        group: GROUPS[i % GROUPS.length],
        votes: 1000 + scrambled * 7,
        attendance: 0.5 + (scrambled % 50) / 100,
        present: i % 3 !== 0,
        page: `https://www.example.org/deputies/PA${i}`,
      };
    }),
  });

  bench.nextFrame = nextFrame;
  bench.settle = settle;
  bench.task = task;
})();
