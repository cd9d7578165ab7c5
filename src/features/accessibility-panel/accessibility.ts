/**
 * Special opportunities (docs/rules.md, Special opportunities): a colour mode and a text-size step, applied
 * as classes on <body> and kept in local storage, so that every page of the
 * static site opens in the chosen look before it paints.
 */
import { STORAGE_KEYS } from '../../lib/storage.ts';

export const COLOUR_MODES = ['normal', 'grayscale', 'contrast', 'dark'] as const;
export type ColourMode = (typeof COLOUR_MODES)[number];

/** Text-size steps as a fraction of the normal size; index 0 is normal. */
export const ZOOM_STEPS = [1, 1.125, 1.25, 1.5] as const;

export interface A11ySettings {
  mode: ColourMode;
  zoom: number;
}

export const A11Y_STORAGE_KEY = STORAGE_KEYS.a11y;

/**
 * The body classes for the settings: `mode-grayscale`, `zoom-2` …; normal settings add none. No page calls it:
 * the two inline scripts below write the same rules out, and their tests hold them to this one.
 */
export function bodyClasses(s: A11ySettings): string[] {
  return [...(s.mode === 'normal' ? [] : [`mode-${s.mode}`]), ...(s.zoom > 0 ? [`zoom-${s.zoom}`] : [])];
}

/**
 * The tiny script that runs first thing in <body>, before anything paints:
 * the same rules as bodyClasses, written out so it needs no module.
 */
export function prePaintScript(): string {
  return (
    `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(A11Y_STORAGE_KEY)})||'{}'),c=document.body.classList;` +
    `if(${JSON.stringify(COLOUR_MODES.filter((m) => m !== 'normal'))}.indexOf(s.mode)>=0)c.add('mode-'+s.mode);` +
    `if(s.zoom>0&&s.zoom<${ZOOM_STEPS.length})c.add('zoom-'+s.zoom)}catch(e){}`
  );
}

/**
 * The panel's choices, as an inline script right after the panel (AccessibilityPanel.astro): on a slow line a
 * module arrives a second or more after the text, and the one control made for a reader who needs larger text
 * must not wait for it. One listener on the document applies a colour mode or a size step as it is pressed (the
 * same classes as bodyClasses), keeps it, and shows the current one in the panel as it opens. Without storage the
 * choice holds for this page only.
 */
export function panelChoicesScript(): string {
  // The choice in force is read back from <body>'s classes, which the pre-paint script set from storage; the
  // size's percentage is the one number in the <output>'s text.
  return (
    `(()=>{const p=document.getElementById('a11y-panel'),l=document.body.classList,S=${JSON.stringify(ZOOM_STEPS)},M=${JSON.stringify(COLOUR_MODES)},` +
    `now=()=>({mode:M.find((m)=>l.contains('mode-'+m))||'normal',zoom:Math.max(0,S.findLastIndex((_,i)=>l.contains('zoom-'+i)))}),` +
    `show=()=>{const c=now(),o=p.querySelector('output');for(const b of p.querySelectorAll('[data-mode]'))b.ariaPressed=b.dataset.mode==c.mode;` +
    `p.querySelector('[data-zoom="-1"]').ariaDisabled=!c.zoom;p.querySelector('[data-zoom="1"]').ariaDisabled=c.zoom==S.length-1;` +
    `o.value=o.value.replace(/\\d+/,Math.round(S[c.zoom]*100))};` +
    `if(!p)return;p.addEventListener('beforetoggle',show);` +
    // A browser without popovers (Safari 16, Firefox 124 and older) opens and closes it by a class instead.
    `if(!p.showPopover)document.addEventListener('click',(e)=>{const b=e.target.closest('[popovertarget=a11y-panel]');if(!b)return;` +
    `const o=!b.hasAttribute('popovertargetaction')&&!p.classList.contains('is-open');if(o)show();p.classList.toggle('is-open',o)});` +
    `p.addEventListener('click',(e)=>{const b=e.target.closest('[data-mode],[data-zoom]'),c=now();if(!b)return;` +
    `if(b.dataset.mode)c.mode=b.dataset.mode;else c.zoom+=+b.dataset.zoom;if(c.zoom<0||c.zoom>=S.length)return;` +
    `l.remove(...M.map((m)=>'mode-'+m),...S.map((_,i)=>'zoom-'+i));if(c.mode!='normal')l.add('mode-'+c.mode);if(c.zoom)l.add('zoom-'+c.zoom);` +
    `try{localStorage.setItem(${JSON.stringify(A11Y_STORAGE_KEY)},JSON.stringify(c))}catch{}show()});p.dataset.ready='true'})()`
  );
}
