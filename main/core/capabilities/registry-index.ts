/**
 * The registry's incremental index: the entries sorted by name, and the result of every recent filter,
 * both patched in place on each change (binary search + splice) instead of rebuilt. Without it the
 * first list_for after a change re-sorted all entries and re-ran the filter over them (~6 ms at 5,000
 * capabilities); with it that call costs what the change touched. A filter not seen recently still
 * costs one pass over the sorted entries, after which it is kept up to date too.
 */
import type { Capability } from './capability.js';
import { rejectionStep, type CompiledFilter } from './filter.js';

/** Views kept; the agent asks with a handful of filters (per trust and role), so 32 is plenty. */
const MAX_VIEWS = 32;
/** Past this many names in one change, rebuilding is cheaper than one splice per name. */
const BATCH_REBUILD = 256;

const byName = (a: Capability, b: Capability) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Index of `name` in a name-sorted list, or where it would be inserted. */
function position(list: readonly Capability[], name: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle].name < name) low = middle + 1;
    else high = middle;
  }
  return low;
}

function removeName(list: Capability[], name: string): void {
  const at = position(list, name);
  if (at < list.length && list[at].name === name) list.splice(at, 1);
}

function insertCap(list: Capability[], cap: Capability): void {
  const at = position(list, cap.name);
  if (at < list.length && list[at].name === cap.name) list[at] = cap;
  else list.splice(at, 0, cap);
}

/** Same key ⇔ same rejectionStep outcome for every capability (the only fields it reads). */
function viewKey(f: CompiledFilter): string {
  const list = (set: ReadonlySet<string> | null) => (set === null ? null : [...set].sort());
  return JSON.stringify([f.kind, list(f.allowedClasses), f.policy?.guest_restrictions === true, list(f.allowed), list(f.excludedNames), list(f.excludedCategories), f.includeHidden]);
}

export interface RegistryIndex {
  /** Every entry, sorted by name. Do not mutate. */
  sorted(): readonly Capability[];
  /** The entries `filter` lets through, sorted by name: a fresh array the caller may keep. */
  select(filter: CompiledFilter): Capability[];
  /** Call after every change, with the new objects of added (or replaced) names. */
  apply(added: readonly Capability[], removed: readonly string[]): void;
}

export function createRegistryIndex(all: () => Iterable<Capability>): RegistryIndex {
  let sorted: Capability[] | null = null;
  // Map order doubles as LRU order.
  const views = new Map<string, { filter: CompiledFilter; caps: Capability[] }>();

  const ordered = () => (sorted ??= [...all()].sort(byName));

  return {
    sorted: ordered,
    select(filter) {
      const key = viewKey(filter);
      let view = views.get(key);
      if (view) views.delete(key);
      else {
        const caps: Capability[] = [];
        for (const cap of ordered()) if (rejectionStep(cap, filter) === null) caps.push(cap);
        view = { filter, caps };
        if (views.size >= MAX_VIEWS) views.delete(views.keys().next().value as string);
      }
      views.set(key, view);
      return view.caps.slice();
    },
    apply(added, removed) {
      if (added.length + removed.length > BATCH_REBUILD) {
        sorted = null;
        views.clear();
        return;
      }
      // Removals first: a replaced name comes back as a new object through `added`.
      if (sorted !== null) {
        for (const name of removed) removeName(sorted, name);
        for (const cap of added) insertCap(sorted, cap);
      }
      for (const view of views.values()) {
        for (const name of removed) removeName(view.caps, name);
        for (const cap of added) if (rejectionStep(cap, view.filter) === null) insertCap(view.caps, cap);
      }
    },
  };
}
