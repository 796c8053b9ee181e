import type { FieldDefinition, GenericListItem } from '../../src/models/fieldDefinition.js';
import { genericListFilters } from '../../src/models/genericListFilters.js';
import type { ModelDefinition } from '../../src/models/modelDefinition.js';
import { ModelRegistry } from '../../src/models/registry.js';
import type { StoredObject } from '../../src/models/storedObject.js';

/**
 * A test-only registry that exercises the mechanisms composite models are built from,
 * in miniature: widget types with port templates; a widget whose create instantiates a
 * port per template of its type (a follow-up hook); links whose two ends are lists of
 * ports of two models (generic_list fields, with NetBox's cable-style filters); and a
 * port's `link_peer`, computed from the links (a computed field depending on another model).
 */

const PORTS = ['test.widgetport', 'test.frontport'];

function model(
  name: string,
  path: string,
  fields: FieldDefinition[],
  extra: Partial<ModelDefinition> = {},
): ModelDefinition {
  return {
    key: `test.${name}`,
    app: 'test',
    model: name,
    path,
    verboseName: name,
    verboseNamePlural: `${name}s`,
    fields: [
      { name: 'id', type: 'id', readOnly: true },
      { name: 'url', type: 'url', readOnly: true },
      { name: 'display', type: 'display', readOnly: true },
      ...fields,
    ],
    brief: ['id', 'url', 'display', 'name'].filter((f) => f !== 'name' || fields.some((x) => x.name === 'name')),
    ordering: ['id'],
    ...extra,
  };
}

const widgetType = model('widgettype', 'widget-types', [
  { name: 'name', type: 'string', required: true, maxLength: 50 },
]);

const portTemplate = model('widgetporttemplate', 'widget-port-templates', [
  { name: 'widget_type', type: 'fk', target: 'test.widgettype', required: true, onDelete: 'CASCADE' },
  // Longer than a port's name may be: a template can make instantiation fail.
  { name: 'name', type: 'string', required: true, maxLength: 30 },
]);

const widget = model(
  'widget',
  'widgets',
  [
    { name: 'name', type: 'string', required: true, maxLength: 50 },
    { name: 'widget_type', type: 'fk', target: 'test.widgettype', required: true, onDelete: 'PROTECT' },
  ],
  {
    hooks: {
      async followUps({ action, obj }, view) {
        if (action !== 'create') return [];
        const templates = await view.find('test.widgetporttemplate', { widget_type: obj.widget_type });
        return templates.map((t) => ({
          kind: 'create' as const,
          model: 'test.widgetport',
          input: { widget: obj.id, name: t.name },
        }));
      },
    },
  },
);

/** The other end of the link a port is on: the far side's items, or null when not linked. */
async function linkPeer(
  type: string,
  port: StoredObject,
  view: { find(model: string, query: Record<string, unknown>): Promise<StoredObject[]> },
): Promise<unknown> {
  const item = { $elemMatch: { object_type: type, object_id: port.id } };
  const [link] = await view.find('test.link', { $or: [{ a_terminations: item }, { b_terminations: item }] });
  if (!link) return null;
  const onA = (link.a_terminations as GenericListItem[]).some((i) => i.object_type === type && i.object_id === port.id);
  return (onA ? link.b_terminations : link.a_terminations) as GenericListItem[];
}

const widgetPort = model(
  'widgetport',
  'widget-ports',
  [
    { name: 'widget', type: 'fk', target: 'test.widget', required: true, onDelete: 'CASCADE' },
    { name: 'name', type: 'string', required: true, maxLength: 10 },
    { name: 'link_peer', type: 'computed', readOnly: true, dependsOn: ['test.link'] },
  ],
  { hooks: { compute: { link_peer: (port, view) => linkPeer('test.widgetport', port, view) } } },
);

const frontPort = model('frontport', 'front-ports', [{ name: 'name', type: 'string', required: true, maxLength: 10 }]);

const link = model(
  'link',
  'links',
  [
    { name: 'label', type: 'string', blank: true, default: '', maxLength: 50 },
    { name: 'a_terminations', type: 'generic_list', targets: PORTS, required: true },
    { name: 'b_terminations', type: 'generic_list', targets: PORTS, required: true },
  ],
  {
    filters: {
      termination_a_type: genericListFilters('a_terminations').type,
      termination_a_id: genericListFilters('a_terminations').id,
      termination_b_type: genericListFilters('b_terminations').type,
      termination_b_id: genericListFilters('b_terminations').id,
    },
  },
);

export function widgetRegistry(): ModelRegistry {
  const registry = new ModelRegistry([widgetType, portTemplate, widget, widgetPort, frontPort, link]);
  registry.validate();
  return registry;
}
