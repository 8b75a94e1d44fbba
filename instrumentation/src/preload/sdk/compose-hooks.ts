type Hook = (...args: never[]) => unknown;

/**
 * The application's instrumentation config with Faultline's hooks added: where both define a
 * hook, both run, Faultline's first unless `userFirst` (the instrumentation runs the composed hook
 * inside its own safe wrapper, so a throwing user hook behaves as it did without Faultline).
 */
export function composeHooks<C extends object>(
  config: C,
  ours: { [K in keyof C]?: C[K] },
  userFirst = false,
): C {
  const out = { ...config } as Record<string, unknown>;
  for (const [name, hook] of Object.entries(ours) as [string, Hook | undefined][]) {
    const user = (config as Record<string, unknown>)[name] as Hook | undefined;
    if (!hook) continue;
    if (typeof user !== 'function') {
      out[name] = hook;
      continue;
    }
    const [first, second] = userFirst ? [user, hook] : [hook, user];
    out[name] = function composed(this: unknown, ...args: never[]) {
      first.apply(this, args);
      return second.apply(this, args);
    };
  }
  return out as C;
}
