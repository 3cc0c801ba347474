/**
 * A QR code of a text (the TOTP key's otpauth URI), drawn as SVG rectangles from qrcode's module
 * matrix: no HTML string is ever parsed (the dashboard's CSP and Trusted Types forbid it). The
 * library is loaded on first use, so only the set-up page pays for it.
 */
import { useEffect, useState } from 'preact/hooks';

interface Matrix {
  readonly size: number;
  readonly dark: readonly boolean[];
}

/** The quiet zone the standard asks around the symbol, in modules. */
const QUIET = 4;

export function QrCode({ text, label }: { text: string; label: string }) {
  const [matrix, setMatrix] = useState<Matrix | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void import('qrcode').then(({ create }) => {
      const { modules } = create(text, { errorCorrectionLevel: 'M' });
      const dark = Array.from({ length: modules.size * modules.size }, (_, i) => modules.data[i] === 1);
      if (current) setMatrix({ size: modules.size, dark });
    });
    return () => {
      current = false;
    };
  }, [text]);
  if (matrix === undefined) return <p class="muted">Drawing the QR code…</p>;
  const side = matrix.size + 2 * QUIET;
  const cells: string[] = [];
  matrix.dark.forEach((on, i) => {
    if (on) cells.push(`M${(i % matrix.size) + QUIET} ${Math.floor(i / matrix.size) + QUIET}h1v1h-1z`);
  });
  return (
    <svg viewBox={`0 0 ${side} ${side}`} role="img" aria-label={label} shape-rendering="crispEdges">
      <rect width={side} height={side} fill="#ffffff" />
      <path d={cells.join('')} fill="#000000" />
    </svg>
  );
}
