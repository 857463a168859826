/** A tiny element builder: enough for this app's views, so no UI framework is needed. */

export type Child = Node | string | null | undefined | false;

type Props = {
  class?: string;
  /** Attributes set with setAttribute (aria-*, data-*, for, role, ...). */
  attrs?: Record<string, string | undefined>;
  /** Event listeners, e.g. { click: () => ... }. */
  on?: Partial<Record<keyof HTMLElementEventMap, (event: Event) => void>>;
} & Record<string, unknown>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  const { class: className, attrs, on, ...properties } = props;
  if (className) el.className = className;
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value !== undefined) el.setAttribute(name, value);
  }
  for (const [type, listener] of Object.entries(on ?? {})) {
    el.addEventListener(type, listener as EventListener);
  }
  Object.assign(el, properties);
  el.append(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
  return el;
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}

/** A random id, also where crypto.randomUUID is missing (pages served over plain http from another host). */
export function newId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
