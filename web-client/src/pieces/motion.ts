/**
 * How pieces move between piles: one shared crossfade, so a card keyed `id` that leaves a hand
 * (`out:send`) and enters a pile (`in:receive`) flies from one to the other. Use the same key
 * on both sides, and `animate:flip` inside each list. Everything here is instant for people
 * who ask their system for reduced motion (the CSS rule in app.css does not reach Svelte's
 * JavaScript-timed transitions, which would otherwise still wait their full duration).
 */
import { cubicOut } from "svelte/easing";
import { crossfade, fly, scale, type FlyParams, type TransitionConfig } from "svelte/transition";

/** Whether the person asked their system for reduced motion. */
export function reducedMotion(): boolean {
  return (
    typeof window !== "undefined" &&
    typeof window.matchMedia === "function" &&
    window.matchMedia("(prefers-reduced-motion: reduce)").matches
  );
}

/** A duration, or none at all under reduced motion. */
export function motionMs(ms: number): number {
  return reducedMotion() ? 0 : ms;
}

export const [send, receive] = crossfade({
  duration: (d) => motionMs(Math.min(450, Math.sqrt(d * 250))),
  easing: cubicOut,
  fallback: (node) => scale(node, { start: 0.6, duration: motionMs(180) }),
});

/** A figure drawn from the Power Pile: it drops into place from above. */
export function drawn(node: Element, params: FlyParams = {}): TransitionConfig {
  return fly(node, { y: -40, duration: motionMs(380), easing: cubicOut, ...params });
}
