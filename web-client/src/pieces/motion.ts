/**
 * How pieces move between piles: one shared crossfade, so a card keyed `id` that leaves a hand
 * (`out:send`) and enters a pile (`in:receive`) flies from one to the other. Use the same key
 * on both sides, and `animate:flip` inside each list.
 */
import { cubicOut } from "svelte/easing";
import { crossfade, scale } from "svelte/transition";

export const [send, receive] = crossfade({
  duration: (d) => Math.min(450, Math.sqrt(d * 250)),
  easing: cubicOut,
  fallback: (node) => scale(node, { start: 0.6, duration: 180 }),
});
