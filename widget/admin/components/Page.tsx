/**
 * A page's heading: the document's title follows it, and it takes the focus when the page opens,
 * so a keyboard or screen-reader user starts at the new page's top.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Gateway administration`;
    heading.current?.focus();
  }, [title]);
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </>
  );
}

/** A titled part of a page. */
export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}
