/**
 * Keyboard focus that survives a redraw. After an action the room redraws: the button that was
 * pressed is often gone (a chooser closes, a card leaves the hand), and the browser then puts
 * focus on the page's body, where a screen reader loses its place and the next Tab starts from
 * the top of the page. `use:keepFocus` on a region puts focus back inside it when that happens:
 * on a control like the lost one when the redraw made a new one (same id or test id), with
 * `neighbour` on the next control when the lost one is still there but disabled (a replay's
 * "Final position" once there), else on the region's landing element.
 */

const FOCUSABLE =
  "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), " +
  "textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";

/** Where focus goes when its control vanished: `landing()` (the board, say), else the region. */
export interface KeepFocusOptions {
  landing?: () => HTMLElement | null | undefined;
  /** Whether a disabled control hands focus to the next one. Not where a second press of
   * Enter on a neighbour would make a move nobody meant (a board while its act is answered). */
  neighbour?: boolean;
}

/** An element of `region` that stands for `lost`: the same id or test id, if still offered. */
function standIn(region: HTMLElement, lost: HTMLElement): HTMLElement | null {
  const key = lost.id
    ? `#${CSS.escape(lost.id)}`
    : lost.dataset.testid
      ? `[data-testid="${CSS.escape(lost.dataset.testid)}"]`
      : null;
  if (!key) return null;
  const found = region.querySelector<HTMLElement>(key);
  return found && found.matches(FOCUSABLE) ? found : null;
}

/** The control of `region` after `lost` in reading order, else the one before it. */
function neighbour(region: HTMLElement, lost: HTMLElement): HTMLElement | null {
  if (!lost.isConnected) return null;
  const controls = [...region.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el !== lost && el.getClientRects().length > 0,
  );
  const after = (el: HTMLElement) =>
    (lost.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  return controls.find(after) ?? controls.filter((el) => !after(el)).pop() ?? null;
}

export function keepFocus(region: HTMLElement, options: KeepFocusOptions = {}) {
  let current = options;
  // The last element focused inside the region: what the person was on before the redraw.
  let last: HTMLElement | null = null;

  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    last = target instanceof HTMLElement && region.contains(target) ? target : null;
  };

  const lost = () => {
    if (!last) return false;
    const disabled = (last as HTMLButtonElement).disabled === true;
    const active = document.activeElement;
    // A disabled control still holds focus until the browser's next rendering step, which
    // then drops it on the body: it counts as lost already.
    if (active === last && disabled) return true;
    if (active && active !== document.body) return false;
    // Focus left for the body because its element went away or can no longer hold it; a
    // click on empty page leaves the element in place and is respected.
    return !last.isConnected || disabled;
  };

  const restore = () => {
    if (!lost() || !last) return;
    const target =
      standIn(region, last) ??
      (current.neighbour ? neighbour(region, last) : null) ??
      current.landing?.() ??
      region;
    if (!target.hasAttribute("tabindex") && !target.matches(FOCUSABLE))
      target.setAttribute("tabindex", "-1");
    last = target;
    target.focus({ preventScroll: true });
  };

  const observer = new MutationObserver(restore);
  observer.observe(region, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["disabled"],
  });
  document.addEventListener("focusin", onFocusIn);

  return {
    update(next: KeepFocusOptions = {}) {
      current = next;
    },
    destroy() {
      observer.disconnect();
      document.removeEventListener("focusin", onFocusIn);
    },
  };
}
