/**
 * Drag and drop with pointer events (mouse, pen and touch alike; HTML5 drag events do not
 * fire on phones). `use:draggable={{ data }}` on a piece and `use:droptarget={{ accepts,
 * ondrop, refusal }}` on a pile. A short move starts a drag; a tap stays a click, so every
 * drag has a click-then-click equivalent for keyboards and screen readers (boards must offer
 * it). A drop on a target that refuses it is never silent: the target's `refusal` (or a plain
 * sentence) shows where the card was let go.
 */
export interface DraggableOptions<T = unknown> {
  data: T;
  disabled?: boolean;
}

export interface DropTargetOptions<T = unknown> {
  accepts?: (data: T) => boolean;
  ondrop: (data: T) => void;
  /** Why this target refuses `data`, in a sentence for the person who let it go. */
  refusal?: (data: T) => string;
}

export const DEFAULT_REFUSAL = "That cannot go there.";
/** How long a refusal stays up: long enough to read a sentence. */
const REFUSAL_MS = 2600;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- targets of every kind of drag share one map
const targets = new Map<Element, DropTargetOptions<any>>();
let dragging: { data: unknown } | null = null;
const THRESHOLD = 6;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- targets of every kind of drag share one map
function targetAt(x: number, y: number): [Element, DropTargetOptions<any>] | null {
  for (const el of document.elementsFromPoint(x, y)) {
    const t = targets.get(el);
    if (t) return [el, t];
  }
  return null;
}

/** The sentence a drop of `data` on `target` is refused with, or null when it is taken. */
export function refusalOf<T>(target: DropTargetOptions<T>, data: T): string | null {
  if (target.accepts?.(data) ?? true) return null;
  return target.refusal?.(data) || DEFAULT_REFUSAL;
}

let notice: HTMLElement | null = null;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;

/** Shows `text` beside where a drop was refused, as a status screen readers announce. */
function showRefusal(text: string, x: number, y: number) {
  notice?.remove();
  clearTimeout(noticeTimer);
  const el = document.createElement("p");
  el.setAttribute("role", "status");
  el.dataset.testid = "drop-refusal";
  el.className = "drop-refusal";
  el.textContent = text;
  // Kept on screen at a phone's width: centred on the drop, clamped to the viewport.
  const width = Math.min(280, window.innerWidth - 16);
  const left = Math.max(8, Math.min(window.innerWidth - width - 8, x - width / 2));
  Object.assign(el.style, {
    position: "fixed",
    left: `${left}px`,
    top: `${Math.max(8, y - 64)}px`,
    width: `${width}px`,
    margin: "0",
    padding: "0.45rem 0.7rem",
    borderRadius: "9px",
    background: "#2b1218",
    border: "1px solid #ff6b6b",
    color: "#efe6dc",
    font: "600 0.9rem/1.3 system-ui, sans-serif",
    textAlign: "center",
    zIndex: "1001",
    pointerEvents: "none",
    boxShadow: "0 6px 18px -6px rgb(0 0 0 / 0.7)",
  });
  document.body.appendChild(el);
  notice = el;
  noticeTimer = setTimeout(() => {
    el.remove();
    if (notice === el) notice = null;
  }, REFUSAL_MS);
}

export function droptarget<T>(node: HTMLElement, options: DropTargetOptions<T>) {
  targets.set(node, options);
  node.dataset.droptarget = "";
  return {
    update(next: DropTargetOptions<T>) {
      targets.set(node, next);
    },
    destroy() {
      targets.delete(node);
    },
  };
}

export function draggable<T>(node: HTMLElement, options: DraggableOptions<T>) {
  let opts = options;
  let start: { x: number; y: number; id: number } | null = null;
  let ghost: HTMLElement | null = null;
  let hovered: Element | null = null;
  let offset = { x: 0, y: 0 };

  function setHover(el: Element | null, ok: boolean) {
    if (hovered && hovered !== el) hovered.classList.remove("drop-hover", "drop-refuse");
    hovered = el;
    if (el) {
      el.classList.toggle("drop-hover", ok);
      el.classList.toggle("drop-refuse", !ok);
    }
  }

  // The press is followed on the window, not the piece: a fast flick leaves the piece before
  // the first pointermove, which the piece itself would never hear.
  function down(e: PointerEvent) {
    if (opts.disabled || e.button !== 0) return;
    // A press whose end never reached the page (released outside the window) is let go.
    if (start) release();
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  }

  function move(e: PointerEvent) {
    if (!start || e.pointerId !== start.id) return;
    if (!ghost) {
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < THRESHOLD) return;
      const rect = node.getBoundingClientRect();
      offset = { x: start.x - rect.left, y: start.y - rect.top };
      ghost = node.cloneNode(true) as HTMLElement;
      Object.assign(ghost.style, {
        position: "fixed",
        left: "0",
        top: "0",
        width: `${rect.width}px`,
        pointerEvents: "none",
        zIndex: "1000",
        opacity: "0.9",
        transform: "rotate(3deg)",
      });
      ghost.setAttribute("aria-hidden", "true");
      document.body.appendChild(ghost);
      node.classList.add("drag-source");
      dragging = { data: opts.data };
    }
    ghost.style.translate = `${e.clientX - offset.x}px ${e.clientY - offset.y}px`;
    const hit = targetAt(e.clientX, e.clientY);
    setHover(hit?.[0] ?? null, hit ? refusalOf(hit[1], opts.data) === null : false);
  }

  function up(e: PointerEvent) {
    if (!start || e.pointerId !== start.id) return;
    const dragged = ghost !== null;
    release();
    if (!dragged) return;
    const hit = targetAt(e.clientX, e.clientY);
    if (hit) {
      const refused = refusalOf(hit[1], opts.data);
      if (refused === null) hit[1].ondrop(opts.data);
      else showRefusal(refused, e.clientX, e.clientY);
    }
    swallowNextClick();
  }

  function release() {
    start = null;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    ghost?.remove();
    ghost = null;
    node.classList.remove("drag-source");
    setHover(null, false);
    dragging = null;
  }

  function cancel(e?: PointerEvent) {
    if (e && start && e.pointerId !== start.id) return;
    release();
  }

  node.addEventListener("pointerdown", down);
  node.style.touchAction = "none";
  return {
    update(next: DraggableOptions<T>) {
      opts = next;
    },
    destroy() {
      release();
      node.removeEventListener("pointerdown", down);
    },
  };
}

/**
 * The pointerup ends a drag, not a tap: the click that follows it (on the piece, or on the
 * nearest ancestor of piece and target after a long flick) is swallowed. The click comes in the
 * same task as the pointerup, so a swallow still armed after it is dropped.
 */
function swallowNextClick() {
  const swallow = (ev: Event) => {
    ev.stopPropagation();
    ev.preventDefault();
  };
  window.addEventListener("click", swallow, { capture: true, once: true });
  setTimeout(() => window.removeEventListener("click", swallow, { capture: true }), 0);
}

/** Whether a drag is under way (boards may highlight legal targets meanwhile). */
export function isDragging(): boolean {
  return dragging !== null;
}
