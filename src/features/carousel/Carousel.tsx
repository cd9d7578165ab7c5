/**
 * The three-photo carousel of /ekoturizm and /sayyorlik_sayohati:
 * previous and next wrap around and are ignored while a slide moves. With
 * reduced motion the slides change at once.
 */
import { useEffect, useRef, useState } from 'react';
import './carousel.scss';
import { format } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/t.ts';
import { SpriteIcon } from '../../islands/SpriteIcon.tsx';
import { useHydrated } from '../../islands/useHydrated.ts';
import { CRASH_MESSAGES, withCrashScreen } from '../../islands/CrashScreen.tsx';

export const CAROUSEL_MESSAGES = [...CRASH_MESSAGES, 'carousel.label', 'carousel.previous', 'carousel.next', 'carousel.slide'] as const satisfies readonly MessageKey[];
type Messages = Record<(typeof CAROUSEL_MESSAGES)[number], string>;

/** How long a slide takes to move; the buttons are ignored until it has arrived. */
const SLIDE_MS = 450;

interface Props {
  slides: { src: string; alt: string }[];
  messages: Messages;
}

function Carousel({ slides, messages: m }: Props) {
  const hydrated = useHydrated();
  const [index, setIndex] = useState(0);
  const [animating, setAnimating] = useState(false);
  const [reduced, setReduced] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // The lock is a ref, not state: two clicks in the same frame must see it.
  const moving = useRef(false);

  useEffect(() => {
    const query = matchMedia('(prefers-reduced-motion: reduce)');
    setReduced(query.matches);
    const onChange = () => setReduced(query.matches);
    query.addEventListener('change', onChange);
    return () => {
      query.removeEventListener('change', onChange);
      clearTimeout(timer.current);
    };
  }, []);

  function go(step: 1 | -1) {
    if (moving.current) return;
    setIndex((i) => (i + step + slides.length) % slides.length);
    if (reduced) return;
    moving.current = true;
    setAnimating(true);
    // A timer rather than transitionend: it fires even when the transition is skipped.
    timer.current = setTimeout(() => {
      moving.current = false;
      setAnimating(false);
    }, SLIDE_MS);
  }

  const label = (n: number) => format(m['carousel.slide'], { n: n + 1, total: slides.length });

  return (
    <section className="carousel" aria-roledescription="carousel" aria-label={m['carousel.label']} data-animating={animating || undefined}>
      <div className="carousel__viewport">
        <ul className="carousel__track" style={{ transform: `translateX(${-index * 100}%)`, transitionDuration: reduced ? '0ms' : `${SLIDE_MS}ms` }}>
          {slides.map((s, i) => (
            <li key={s.src} aria-roledescription="slide" aria-label={label(i)} aria-hidden={i !== index} inert={i !== index}>
              <img src={s.src} alt={s.alt} width={600} height={400} loading={i === 0 ? 'eager' : 'lazy'} />
            </li>
          ))}
        </ul>
      </div>
      <div className="carousel__controls">
        <button type="button" disabled={!hydrated} onClick={() => go(-1)} aria-label={m['carousel.previous']}>
          <SpriteIcon name="arrow-left" size={24} />
        </button>
        <p aria-live="polite">
          {label(index)}: {slides[index]?.alt}
        </p>
        <button type="button" disabled={!hydrated} onClick={() => go(1)} aria-label={m['carousel.next']}>
          <SpriteIcon name="arrow-right" size={24} />
        </button>
      </div>
    </section>
  );
}

export default withCrashScreen(Carousel);
