/**
 * A component drawn from a part (widget/build/parts.ts): `load` dynamically imports the
 * component's own module, so the build makes that module a part, fetched from the gateway.
 * `preload()` fetches it ahead (boot does for the forms it is about to draw, so `onReady` still
 * means drawn); drawn before it is loaded, the component draws nothing until it is. A failed load
 * is reported (onError) and tried again the next time it is drawn.
 */
import type { ComponentType, FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useWidget } from '../../core/context';
import { widgetError } from '../../core/errors';

export type Lazy<P> = FunctionComponent<P> & { preload(): Promise<unknown> };

export function lazy<P extends object>(load: () => Promise<ComponentType<P>>): Lazy<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const start = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = (props: P) => {
    const ctx = useWidget();
    const [, drawn] = useState(0);
    useEffect(() => {
      if (loaded !== undefined) return;
      let live = true;
      start().then(
        () => live && drawn(1),
        (error: unknown) =>
          ctx.report(
            widgetError(
              `A part of the widget did not load: ${error instanceof Error ? error.message : error}`,
            ),
          ),
      );
      return () => {
        live = false;
      };
    }, []);
    const Component = loaded;
    return Component === undefined ? null : <Component {...props} />;
  };
  // Ahead of drawing: a failure is left to the drawing, which reports it.
  Lazy.preload = () => start().catch(() => undefined);
  return Lazy;
}
