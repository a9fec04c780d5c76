/**
 * Drag and drop with pointer events (mouse, pen and touch alike; HTML5 drag events do not
 * fire on phones). `use:draggable={{ data }}` on a piece and `use:droptarget={{ accepts,
 * ondrop }}` on a pile. A short move starts a drag; a tap stays a click, so every drag has a
 * click-then-click equivalent for keyboards and screen readers (boards must offer it).
 */
export interface DraggableOptions<T = unknown> {
  data: T;
  disabled?: boolean;
}

export interface DropTargetOptions<T = unknown> {
  accepts?: (data: T) => boolean;
  ondrop: (data: T) => void;
}

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

  function down(e: PointerEvent) {
    if (opts.disabled || e.button !== 0) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
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
      node.setPointerCapture(e.pointerId);
      dragging = { data: opts.data };
    }
    ghost.style.translate = `${e.clientX - offset.x}px ${e.clientY - offset.y}px`;
    const hit = targetAt(e.clientX, e.clientY);
    setHover(hit?.[0] ?? null, hit ? (hit[1].accepts?.(opts.data) ?? true) : false);
  }

  function up(e: PointerEvent) {
    if (!start || e.pointerId !== start.id) return;
    start = null;
    if (!ghost) return;
    ghost.remove();
    ghost = null;
    node.classList.remove("drag-source");
    setHover(null, false);
    dragging = null;
    const hit = targetAt(e.clientX, e.clientY);
    if (hit && (hit[1].accepts?.(opts.data) ?? true)) hit[1].ondrop(opts.data);
    // The pointerup ends a drag, not a tap: swallow the click that follows.
    node.addEventListener("click", (ev) => ev.stopPropagation(), { capture: true, once: true });
  }

  function cancel() {
    start = null;
    ghost?.remove();
    ghost = null;
    node.classList.remove("drag-source");
    setHover(null, false);
    dragging = null;
  }

  node.addEventListener("pointerdown", down);
  node.addEventListener("pointermove", move);
  node.addEventListener("pointerup", up);
  node.addEventListener("pointercancel", cancel);
  node.style.touchAction = "none";
  return {
    update(next: DraggableOptions<T>) {
      opts = next;
    },
    destroy() {
      cancel();
      node.removeEventListener("pointerdown", down);
      node.removeEventListener("pointermove", move);
      node.removeEventListener("pointerup", up);
      node.removeEventListener("pointercancel", cancel);
    },
  };
}

/** Whether a drag is under way (boards may highlight legal targets meanwhile). */
export function isDragging(): boolean {
  return dragging !== null;
}
