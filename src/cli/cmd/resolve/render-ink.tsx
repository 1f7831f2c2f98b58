/**
 * The ink dossier for terminals. It draws the lines of the shared layout (layoutDossier: the same
 * view model and the same wrapping as the text dossier), so the two cannot drift apart; only the
 * verdict is ink's own, in a rounded box.
 *
 * ink never wraps a line itself here: its wrapping cuts long words (a DID would be split across
 * lines) and starts each continuation line with the space it broke at, one column too far in.
 * Every line arrives already fitted to the width, and the output is as wide as its widest line.
 */
import chalk from 'chalk';
import { Box, Static, Text, render, type TextProps } from 'ink';
import type { EnrichedResolution } from '../../../core/resolve/types.js';
import { buildDossierView, type DossierView } from '../../../present/dossier.js';
import { layoutDossier, type DossierLayout, type DossierOptions } from './render.js';
import type { Tone } from '../../../present/text.js';
import { DEFAULT_WIDTH, TONE_COLORS, columns, hang, lineText, type Line } from '../../cmdutil/layout.js';

export interface RenderDossierOptions extends DossierOptions {
  colorLevel: 0 | 1 | 2 | 3;
  stdout?: NodeJS.WriteStream;
  /** Columns to lay the dossier out for; the terminal's width by default. */
  width?: number;
}

/** At level 0 no colour prop is set at all, so nothing depends on chalk stripping it. */
function toneProps(tone: Tone, color: boolean): Pick<TextProps, 'color' | 'dimColor'> {
  const c = TONE_COLORS[tone];
  if (!color || c === null) return {};
  return c === 'dim' ? { dimColor: true } : { color: c };
}

interface ColorProp {
  color: boolean;
}

function LineText({ line, color }: { line: Line } & ColorProp) {
  return (
    <Text>
      {line.map((span, i) => (
        <Text key={i} bold={span.bold === true} {...toneProps(span.tone ?? 'plain', color)}>
          {span.text}
        </Text>
      ))}
    </Text>
  );
}

function Lines({ lines, color }: { lines: Line[] } & ColorProp) {
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <LineText key={i} line={line} color={color} />
      ))}
    </Box>
  );
}

/** Border and padding on each side of the verdict box. */
const BOX_FRAME = 4;

/** The headline as the box holds it, and the box's width: the layout's, wider only for a word that fits no line. */
function verdictBox(verdict: DossierView['verdict'], width: number): { headline: Line[]; boxWidth: number } {
  const headline = hang('', verdict.headline, width - BOX_FRAME);
  const widest = Math.max(columns(verdict.outcome), ...headline.map((l) => columns(lineText(l))));
  return { headline, boxWidth: Math.max(width, widest + BOX_FRAME) };
}

function VerdictBox({ verdict, width, color }: { verdict: DossierView['verdict']; width: number } & ColorProp) {
  const { outcome, tone } = verdict;
  const border = TONE_COLORS[tone];
  const { headline, boxWidth } = verdictBox(verdict, width);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      paddingX={1}
      marginTop={1}
      width={boxWidth}
      {...(color && border !== null && border !== 'dim' ? { borderColor: border } : {})}
    >
      <Text bold {...toneProps(tone, color)}>
        {outcome}
      </Text>
      <Lines lines={headline} color={color} />
    </Box>
  );
}

export function Dossier({ layout, width, color }: { layout: DossierLayout; width: number } & ColorProp) {
  return (
    <Box flexDirection="column">
      <Lines lines={layout.header} color={color} />
      <VerdictBox verdict={layout.verdict} width={width} color={color} />
      {layout.sections.map((lines, i) => (
        <Box key={i} marginTop={1}>
          <Lines lines={lines} color={color} />
        </Box>
      ))}
    </Box>
  );
}

/**
 * Renders the dossier once, then unmounts; resolves when ink has flushed its last frame.
 *
 * The dossier goes through <Static>: ink writes static output once, as is. A dynamic frame
 * taller than the terminal would instead be redrawn after clearing the screen and scrollback.
 */
export async function renderDossier(result: EnrichedResolution, options: RenderDossierOptions): Promise<void> {
  // ink colours through chalk's default instance, and chalk ignores NO_COLOR: set the level we decided.
  chalk.level = options.colorLevel;
  const stdout = options.stdout ?? process.stdout;
  const color = options.colorLevel > 0;
  const width = options.width ?? (stdout.columns || DEFAULT_WIDTH);
  const layout = layoutDossier(buildDossierView(result), width, options);
  // Static output is positioned absolutely, so it needs a width; a lone over-long token (a
  // did:jwk) widens it rather than being cut, as the text dossier lets it overflow.
  const widest = Math.max(verdictBox(layout.verdict, width).boxWidth, ...[layout.header, ...layout.sections].flat().map((line) => columns(lineText(line))));
  const instance = render(
    <Static items={[layout]} style={{ width: widest }}>
      {(l) => <Dossier key="dossier" layout={l} width={width} color={color} />}
    </Static>,
    { stdout, patchConsole: false, exitOnCtrlC: false },
  );
  // Ask for the exit promise before unmounting so ink's resolver is in place when unmount settles.
  const exited = instance.waitUntilExit();
  instance.unmount();
  await exited;
}
