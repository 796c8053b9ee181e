// Field facts from NetBox 3.4.10's wireless serializers and models; the reference folder has no wireless app.
import { nestedGroupModel } from '../nestedGroupModel.js';
import { cumulativeCountField } from '../treeCounts.js';

export const wirelesslangroup = nestedGroupModel({
  key: 'wireless.wirelesslangroup',
  path: 'wireless-lan-groups',
  verboseName: 'Wireless LAN Group',
  counts: [cumulativeCountField('wirelesslan_count', 'wireless.wirelesslangroup', 'wireless.wirelesslan', 'group')],
  search: ['name', 'slug', 'description'],
});
