/**
 * The ink dossier for terminals. It lays out the same view model as the plain-text dossier
 * (buildDossierView), so grouping, markers and colours are decided in one place.
 */
import chalk from 'chalk';
import { Box, Static, Text, render, type TextProps } from 'ink';
import type { ReactNode } from 'react';
import type { EnrichedResolution } from '../../core/resolve/types.js';
import {
  TONE_COLORS,
  buildDossierView,
  headerLine,
  type DimensionGroup,
  type DossierView,
  type EvidenceSection,
  type Field,
  type HistoryView,
  type KeyRow,
  type Note,
  type TimelineRow,
  type Tone,
} from '../output/dossier.js';

export interface RenderDossierOptions {
  colorLevel: 0 | 1 | 2 | 3;
  stdout?: NodeJS.WriteStream;
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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>{title}</Text>
      <Box flexDirection="column" marginLeft={2}>
        {children}
      </Box>
    </Box>
  );
}

function Header({ view, color }: { view: DossierView } & ColorProp) {
  return (
    <Box flexDirection="column">
      <Text bold>{view.did}</Text>
      <Text {...toneProps('muted', color)}>{headerLine(view)}</Text>
      {view.version !== null && <Text {...toneProps('muted', color)}>{view.version}</Text>}
    </Box>
  );
}

function VerdictBox({ view, color }: { view: DossierView } & ColorProp) {
  const { outcome, tone, headline } = view.verdict;
  const border = TONE_COLORS[tone];
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      paddingX={1}
      marginTop={1}
      {...(color && border !== null && border !== 'dim' ? { borderColor: border } : {})}
    >
      <Text bold {...toneProps(tone, color)}>
        {outcome}
      </Text>
      <Text>{headline}</Text>
    </Box>
  );
}

function Group({ group, color }: { group: DimensionGroup } & ColorProp) {
  return (
    <Section title={group.title}>
      {group.rows.map((row) => (
        <Box key={row.id} flexDirection="column">
          <Text>
            <Text {...toneProps(row.tone, color)}>{row.marker}</Text> <Text bold>{row.label}</Text>
            {'  '}
            <Text {...toneProps(row.tone, color)}>{row.state}</Text>
          </Text>
          <Box marginLeft={4}>
            <Text>{row.statement}</Text>
          </Box>
        </Box>
      ))}
    </Section>
  );
}

function Fields({ fields, indent, color }: { fields: Field[]; indent: number } & ColorProp) {
  const labelWidth = Math.max(...fields.map((f) => f.label.length)) + 2;
  return (
    <>
      {fields.map((field, i) => (
        <Box key={`${i}:${field.label}`} marginLeft={indent}>
          <Box width={labelWidth} flexShrink={0}>
            <Text {...toneProps('muted', color)}>{field.label}</Text>
          </Box>
          <Text {...toneProps(field.tone, color)}>{field.value}</Text>
        </Box>
      ))}
    </>
  );
}

function Key({ row, color }: { row: KeyRow } & ColorProp) {
  return (
    <Box flexDirection="column">
      <Text bold>{row.displayId}</Text>
      <Fields fields={row.fields} indent={4} color={color} />
    </Box>
  );
}

function EvidenceBlock({ section, color }: { section: EvidenceSection } & ColorProp) {
  return (
    <Section title={section.title}>
      <Fields fields={section.fields} indent={0} color={color} />
    </Section>
  );
}

/**
 * Notes two spaces apart, each in its own colour, wrapping as one text; a `nowrap` note keeps
 * its words together with no-break spaces (ink wraps at plain spaces only).
 */
function Notes({ notes, color }: { notes: Note[] } & ColorProp) {
  return (
    <Text>
      {notes.map((note, i) => (
        <Text key={i}>
          {i > 0 ? '  ' : ''}
          <Text {...toneProps(note.tone, color)}>{note.nowrap ? note.text.replace(/ /g, '\u00a0') : note.text}</Text>
        </Text>
      ))}
    </Text>
  );
}

function TimelineLine({ row, color }: { row: TimelineRow } & ColorProp) {
  if (row.kind === 'gap') return <Text {...toneProps('muted', color)}>{row.text}</Text>;
  // The same columns as the text dossier: marker, number and time, then the notes hanging.
  const prefixWidth = [...`${row.marker} ${row.when}  `].length;
  return (
    <Box>
      <Box width={prefixWidth} flexShrink={0}>
        <Text>
          <Text {...toneProps(row.markerTone, color)}>{row.marker}</Text> <Text {...toneProps(row.whenTone, color)}>{row.when}</Text>
        </Text>
      </Box>
      <Notes notes={row.notes} color={color} />
    </Box>
  );
}

function History({ history, color }: { history: HistoryView } & ColorProp) {
  return (
    <Section title={history.title}>
      <Fields fields={history.summary} indent={0} color={color} />
      {history.timeline.map((row, i) => (
        <TimelineLine key={i} row={row} color={color} />
      ))}
      {history.failure && <Text {...toneProps(history.failure.tone, color)}>{history.failure.text}</Text>}
      {history.witness.length > 0 && <Fields fields={history.witness} indent={0} color={color} />}
      {history.reused && <Text {...toneProps(history.reused.tone, color)}>{history.reused.text}</Text>}
    </Section>
  );
}

function Keys({ view, color }: { view: DossierView } & ColorProp) {
  return (
    <Section title="Keys">
      {view.keys.length === 0 ? (
        <Text {...toneProps('muted', color)}>The document publishes no keys.</Text>
      ) : (
        view.keys.map((row, i) => <Key key={`${i}:${row.id}`} row={row} color={color} />)
      )}
    </Section>
  );
}

/** A marked list whose items wrap under their text, not under the marker. */
function MarkedList({ items, marker, tone, color }: { items: string[]; marker: string; tone: Tone } & ColorProp) {
  return (
    <>
      {items.map((item, i) => (
        <Box key={i}>
          <Box width={2} flexShrink={0}>
            <Text {...toneProps(tone, color)}>{marker}</Text>
          </Box>
          <Text {...toneProps(tone, color)}>{item}</Text>
        </Box>
      ))}
    </>
  );
}

export function Dossier({ view, color }: { view: DossierView } & ColorProp) {
  return (
    <Box flexDirection="column">
      <Header view={view} color={color} />
      <VerdictBox view={view} color={color} />
      {view.groups.map((group) => (
        <Group key={group.cls} group={group} color={color} />
      ))}
      <Keys view={view} color={color} />
      {view.evidence.map((section) => (
        <EvidenceBlock key={section.title} section={section} color={color} />
      ))}
      {view.history !== null && <History history={view.history} color={color} />}
      {view.warnings.length > 0 && (
        <Section title="Document warnings">
          <MarkedList items={view.warnings} marker="!" tone="warn" color={color} />
        </Section>
      )}
      {view.limitations.length > 0 && (
        <Section title="Limitations">
          <MarkedList items={view.limitations} marker="•" tone="muted" color={color} />
        </Section>
      )}
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
  const view = buildDossierView(result);
  const instance = render(
    // Static output is positioned absolutely, so it needs the terminal's width to wrap at.
    <Static items={[view]} style={{ width: stdout.columns || 80 }}>
      {(v) => <Dossier key={v.did} view={v} color={color} />}
    </Static>,
    { stdout, patchConsole: false, exitOnCtrlC: false },
  );
  // Ask for the exit promise before unmounting so ink's resolver is in place when unmount settles.
  const exited = instance.waitUntilExit();
  instance.unmount();
  await exited;
}
