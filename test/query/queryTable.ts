/**
 * The query table: for each lookup, special filter, ordering and injection case, the
 * list query and the exact ids expected, in order (or the 400 body). Run against every
 * read store (filters.spec.ts, readStores.contract.spec.ts) over test/query/dataset.ts.
 *
 * Default orders over the dataset, for reading the expectations:
 *   devices (natural name, null first):   4 (null) 5 'a.*b' 3 'core1' 2 'edge2' 1 'edge10'
 *   interfaces (device, natural name):    4 xe-0/0/1, 3 eth1, 2 eth2, 1 eth10, 5 lo0 | 6 eth0 | 7 wlan0
 *   prefixes (vrf nulls first, network):  7 9/8, 1 10/8, 3 10.1.2/24, 4 192.168/16, 5 2001:db8::/32 | vrf 1: 6 10/8, 2 10.1/16
 *   IP addresses (address numerically):   7 9.255.255.255, 6 10.0.0.1, 1 10.1.2.3/24, 8 10.1.2.3/32, 3 10.1.2.9, 2 10.1.2.10, 4 192.168.1.1, 5 2001:db8::1
 *   VLANs (site, group, vid; nulls first): 4, 1, 2, 5, 7 | site 1: 6 | site 2: 3
 */

export interface QueryCase {
  model: string;
  query: string;
  ids?: number[];
  error?: Record<string, string[]>;
  /** What the case shows. */
  note?: string;
}

const notOne = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;
const LONG = 'a'.repeat(102_400);

export const CASES: QueryCase[] = [
  // ---- no filter, unknown parameters, empty values
  { model: 'dcim.device', query: '', ids: [4, 5, 3, 2, 1], note: 'default order: natural name, null first' },
  { model: 'dcim.device', query: 'nmae=edge2&limit=1&brief=', ids: [4, 5, 3, 2, 1], note: 'unknown and non-filter parameters are ignored' },
  { model: 'dcim.device', query: 'name=', ids: [4, 5, 3, 2, 1], note: 'empty values filter nothing' },

  // ---- string lookups (device name is case-insensitive exact in NetBox)
  { model: 'dcim.device', query: 'name=edge2', ids: [2] },
  { model: 'dcim.device', query: 'name=EDGE2', ids: [2], note: 'device name: iexact' },
  { model: 'dcim.device', query: 'name=edge2&name=core1', ids: [3, 2], note: 'repeated parameter ORs' },
  { model: 'dcim.device', query: 'name__n=edge2', ids: [4, 5, 3, 1], note: 'negation keeps null' },
  { model: 'dcim.device', query: 'name__ic=EDGE', ids: [2, 1] },
  { model: 'dcim.device', query: 'name__nic=edge', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'name__isw=ed', ids: [2, 1] },
  { model: 'dcim.device', query: 'name__nisw=ed', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'name__iew=0', ids: [1] },
  { model: 'dcim.device', query: 'name__niew=0', ids: [4, 5, 3, 2] },
  { model: 'dcim.device', query: 'name__ie=Edge2', ids: [2] },
  { model: 'dcim.device', query: 'name__nie=edge2', ids: [4, 5, 3, 1] },
  { model: 'dcim.device', query: 'name__ic=edge&name__ic=core', ids: [3, 2, 1], note: 'repeated lookup ORs' },
  { model: 'dcim.device', query: 'name__nic=edge&name__nic=core', ids: [4, 5], note: 'negated lookup excludes any match' },
  { model: 'dcim.device', query: 'name__empty=true', ids: [4], note: 'empty: null or empty string' },
  { model: 'dcim.device', query: 'name__empty=false', ids: [5, 3, 2, 1] },
  { model: 'dcim.device', query: 'serial__empty=1', ids: [4, 3] },
  { model: 'dcim.device', query: 'serial=abc-1', ids: [1], note: 'serial: iexact' },
  { model: 'dcim.device', query: 'serial__ic=ABC', ids: [2, 1] },
  { model: 'tenancy.tenant', query: 'name=acme', ids: [], note: 'plain exact is case-sensitive' },
  { model: 'tenancy.tenant', query: 'name=Acme&slug__isw=glo', ids: [], note: 'different parameters AND' },
  { model: 'tenancy.tenant', query: 'slug__isw=acme&name=Acme', ids: [1] },
  { model: 'dcim.site', query: 'facility__empty=true', ids: [2] },

  // ---- values are data (injection)
  { model: 'dcim.device', query: 'name__ic=.*', ids: [5], note: 'regex metacharacters are literal' },
  { model: 'dcim.device', query: 'name__isw=a.*', ids: [5] },
  { model: 'dcim.device', query: 'name__ic=(', ids: [] },
  { model: 'dcim.device', query: 'name__ic=%5B', ids: [] },
  { model: 'dcim.device', query: 'name__ic=a%7C.*', ids: [] },
  { model: 'dcim.device', query: 'asset_tag__ic=.*', ids: [4] },
  { model: 'dcim.device', query: 'asset_tag=.*', ids: [] },
  { model: 'dcim.device', query: 'serial__iew=y', ids: [5] },
  { model: 'dcim.device', query: 'serial__iew=x', ids: [], note: 'end anchor is the end of the text, not before a final newline' },
  { model: 'dcim.device', query: 'serial__isw=y', ids: [], note: 'start anchor is the start of the text' },
  { model: 'dcim.device', query: 'name%5B%24ne%5D=x', ids: [4, 5, 3, 2, 1], note: '?name[$ne]=x is an unknown parameter' },
  { model: 'dcim.device', query: '%24where=1&%24or=x', ids: [4, 5, 3, 2, 1] },
  { model: 'dcim.device', query: 'name=%24ne', ids: [] },
  { model: 'tenancy.tenant', query: 'name=%7B%22%24ne%22%3A1%7D', ids: [], note: 'a JSON operator in a value is text' },
  { model: 'tenancy.tenant', query: `name=${LONG}`, ids: [], note: '100 KB exact value: no match, no error' },
  { model: 'dcim.device', query: `name__ic=${LONG}`, error: { name__ic: ['Ensure this value has at most 1000 characters (it has 102400).'] } },
  { model: 'dcim.device', query: `q=${LONG}`, error: { q: ['Ensure this value has at most 1000 characters (it has 102400).'] } },
  { model: 'dcim.device', query: 'site_id=1%20OR%201%3D1', error: { site_id: ['“1 OR 1=1” is not a valid value.'] } },

  // ---- q
  { model: 'dcim.device', query: 'q=edge', ids: [2, 1] },
  { model: 'dcim.device', query: 'q=abc', ids: [2, 1], note: 'q covers serial' },
  { model: 'dcim.device', query: 'q=%20%20', ids: [4, 5, 3, 2, 1], note: 'blank q filters nothing' },
  { model: 'dcim.site', query: 'q=FRANK', ids: [1, 3] },
  { model: 'ipam.prefix', query: 'q=core', ids: [2] },
  { model: 'ipam.prefix', query: 'q=10.1', ids: [3, 2] },
  { model: 'ipam.prefix', query: 'q=10.1.2.5', ids: [1, 3, 6, 2], note: 'q also finds the networks containing an address' },
  { model: 'ipam.vlan', query: 'q=300', ids: [3], note: 'q also matches the VID' },
  { model: 'ipam.ipaddress', query: 'q=10.1.2', ids: [1, 8, 3, 2], note: 'q: address starts with' },
  { model: 'ipam.ipaddress', query: 'q=0.1', ids: [], note: 'q: the address must start with the text' },
  { model: 'ipam.ipaddress', query: 'q=EXAMPLE', ids: [1, 2] },
  { model: 'dcim.device', query: 'q=10.0.0', ids: [1], note: 'q: primary IP starts with' },
  { model: 'ipam.vlan', query: 'q=LOC', ids: [6] },

  // ---- numbers
  { model: 'dcim.device', query: 'position=10', ids: [1] },
  { model: 'dcim.device', query: 'position__gt=10', ids: [2] },
  { model: 'dcim.device', query: 'position__gte=10', ids: [2, 1] },
  { model: 'dcim.device', query: 'position__lt=20.5', ids: [1] },
  { model: 'dcim.device', query: 'position__lte=20.5', ids: [2, 1] },
  { model: 'dcim.device', query: 'position__n=10', ids: [4, 5, 3, 2] },
  { model: 'dcim.device', query: 'position__empty=true', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'position=abc', error: { position: ['Enter a number.'] } },
  { model: 'dcim.device', query: 'id=1&id=3', ids: [3, 1] },
  { model: 'dcim.device', query: 'id__gt=3', ids: [4, 5] },
  { model: 'dcim.device', query: 'id__lte=2', ids: [2, 1] },
  { model: 'dcim.device', query: 'id__n=1&id__n=2', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'id=abc', error: { id: ['Enter a whole number.'] } },
  { model: 'dcim.device', query: 'id=1.5&position=x', error: { id: ['Enter a whole number.'], position: ['Enter a number.'] }, note: 'every invalid parameter is reported' },
  { model: 'dcim.interface', query: 'mtu__gte=1500', ids: [2, 1] },
  { model: 'ipam.vlan', query: 'vid__gte=500', ids: [5, 7, 6] },
  { model: 'ipam.vlan', query: 'vid__lt=200&vid__lt=300', ids: [1, 2], note: 'lt with several values: less than any' },

  // ---- dates and datetimes
  { model: 'dcim.device', query: 'created__gte=2024-06-01', ids: [4, 5, 3, 2] },
  { model: 'dcim.device', query: 'created__lt=2024-06-15T12:30:00Z', ids: [1] },
  { model: 'dcim.device', query: 'created=2024-06-15T12:30:00Z', ids: [2] },
  { model: 'dcim.device', query: 'created__lte=2024-06-15T14:30:00%2B02:00', ids: [2, 1], note: 'offsets are converted to UTC' },
  { model: 'dcim.device', query: 'last_updated__gt=2024-12-31T23:59:59.999999', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'created=yesterday', error: { created: ['Enter a valid date/time.'] } },
  { model: 'dcim.device', query: 'created__gte=2024-02-30', error: { created__gte: ['Enter a valid date/time.'] } },

  // ---- choices
  { model: 'dcim.device', query: 'status=active', ids: [5, 3, 1] },
  { model: 'dcim.device', query: 'status=active&status=planned', ids: [5, 3, 2, 1] },
  { model: 'dcim.device', query: 'status__n=active', ids: [4, 2] },
  { model: 'dcim.device', query: 'status=urgent', error: { status: [notOne('urgent')] } },
  { model: 'ipam.ipaddress', query: 'role=vip', ids: [2] },
  { model: 'ipam.ipaddress', query: 'role=bogus', error: { role: [notOne('bogus')] } },
  { model: 'ipam.ipaddress', query: 'family=6', ids: [5] },
  { model: 'ipam.ipaddress', query: 'family=4', ids: [7, 6, 1, 8, 3, 2, 4] },
  { model: 'dcim.interface', query: 'type=virtual', ids: [5] },

  // ---- booleans
  { model: 'dcim.device', query: 'is_full_depth=true', ids: [2, 1] },
  { model: 'dcim.device', query: 'is_full_depth=1', ids: [2, 1] },
  { model: 'dcim.device', query: 'is_full_depth=False', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'is_full_depth=yes', ids: [4, 5, 3, 2, 1], note: 'an unknown boolean word disables the filter' },
  { model: 'dcim.interface', query: 'enabled=0', ids: [] },
  { model: 'dcim.interface', query: 'enabled=True&device_id=2', ids: [6] },

  // ---- relations by id, slug, name; null; negation; unknown values
  { model: 'dcim.device', query: 'site_id=1', ids: [2, 1] },
  { model: 'dcim.device', query: 'site_id=1&site_id=3', ids: [4, 5, 2, 1] },
  { model: 'dcim.device', query: 'site_id__n=1', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'site=dc-1', ids: [2, 1] },
  { model: 'dcim.device', query: 'site__n=dc-1&site__n=dc-2', ids: [3] },
  { model: 'dcim.device', query: 'site=nope', error: { site: [notOne('nope')] } },
  { model: 'dcim.device', query: 'site_id=999', error: { site_id: [notOne('999')] } },
  { model: 'dcim.device', query: 'site_id=abc', error: { site_id: ['“abc” is not a valid value.'] } },
  { model: 'dcim.device', query: 'tenant_id=null', ids: [4, 5, 2] },
  { model: 'dcim.device', query: 'tenant_id=null&tenant_id=1', ids: [4, 5, 2, 1] },
  { model: 'dcim.device', query: 'tenant_id__n=null', ids: [3, 1] },
  { model: 'dcim.device', query: 'tenant=acme', ids: [1] },
  { model: 'dcim.device', query: 'manufacturer=cisco', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'manufacturer_id=1', ids: [2, 1] },
  { model: 'dcim.device', query: 'role=router', ids: [2, 1] },
  { model: 'dcim.device', query: 'role_id__n=1', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'device_role_id=1', ids: [4, 5, 3, 2, 1], note: 'NetBox names it role_id' },
  { model: 'dcim.device', query: 'model=mx204', ids: [2, 1] },
  { model: 'dcim.device', query: 'rack_id=1', ids: [1] },
  { model: 'dcim.device', query: 'platform_id=null', ids: [4, 5, 3, 2, 1] },
  { model: 'dcim.device', query: 'cluster_id=1', error: { cluster_id: [notOne('1')] }, note: 'no clusters exist' },
  { model: 'dcim.device', query: 'contact=1', error: { contact: [notOne('1')] } },
  { model: 'dcim.device', query: 'contact=null', ids: [4, 5, 3, 2, 1] },

  // ---- trees: descendants included
  { model: 'dcim.device', query: 'region_id=1', ids: [2, 1], note: 'Europe includes Germany' },
  { model: 'dcim.device', query: 'region=europe', ids: [2, 1] },
  { model: 'dcim.device', query: 'region=asia', ids: [3] },
  { model: 'dcim.device', query: 'region_id=null', ids: [4, 5] },
  { model: 'dcim.device', query: 'region_id__n=1', ids: [4, 5, 3] },
  { model: 'dcim.device', query: 'site_group=core', ids: [2, 1] },
  { model: 'dcim.device', query: 'tenant_group=customers', ids: [3, 1] },
  { model: 'dcim.device', query: 'tenant_group_id=2', ids: [1] },
  { model: 'dcim.device', query: 'tenant_group_id=null', ids: [4, 5, 2] },
  { model: 'dcim.device', query: 'location_id=1', ids: [1] },
  { model: 'dcim.site', query: 'region_id=1', ids: [1] },
  { model: 'dcim.site', query: 'group=core', ids: [1] },
  { model: 'dcim.site', query: 'tenant_group=customers', ids: [1, 3] },
  { model: 'tenancy.tenant', query: 'group=customers', ids: [1, 2] },
  { model: 'tenancy.tenant', query: 'group_id=2', ids: [1] },
  { model: 'tenancy.tenantgroup', query: 'parent_id=1', ids: [2], note: 'parent: direct only' },
  { model: 'dcim.location', query: 'parent_id=1', ids: [2], note: 'location parent (with descendants)' },

  // ---- tags: repeated values AND
  { model: 'dcim.device', query: 'tag=red', ids: [3, 2] },
  { model: 'dcim.device', query: 'tag=red&tag=blue', ids: [3] },
  { model: 'dcim.device', query: 'tag__n=red', ids: [4, 5, 1] },
  { model: 'dcim.device', query: 'tag=nope', error: { tag: [notOne('nope')] } },

  // ---- device specials
  { model: 'dcim.device', query: 'has_primary_ip=true', ids: [1] },
  { model: 'dcim.device', query: 'has_primary_ip=false', ids: [4, 5, 3, 2] },
  { model: 'dcim.device', query: 'local_context_data=true', ids: [3] },
  { model: 'dcim.device', query: 'virtual_chassis_member=false', ids: [4, 5, 3, 2, 1] },
  { model: 'dcim.device', query: 'mac_address=aa-bb-cc-dd-ee-ff', ids: [2] },
  { model: 'dcim.device', query: 'interfaces=true', ids: [3, 2, 1] },
  { model: 'dcim.device', query: 'console_ports=true', ids: [] },
  { model: 'dcim.device', query: 'console_ports=false', ids: [4, 5, 3, 2, 1] },
  { model: 'dcim.device', query: 'site_id=1&status=active&name__ic=edge', ids: [1] },

  // ---- custom fields
  { model: 'dcim.device', query: 'cf_color=red', ids: [1], note: 'loose: contains, case-insensitive' },
  { model: 'dcim.device', query: 'cf_code=foo', ids: [1], note: 'exact logic' },
  { model: 'dcim.device', query: 'cf_code__ic=foo', ids: [2, 1] },
  { model: 'dcim.device', query: 'cf_code__iew=bar', ids: [3, 2] },
  { model: 'dcim.device', query: 'cf_code__nie=FOO', ids: [4, 5, 3, 2] },
  { model: 'dcim.device', query: 'cf_count=5', ids: [1] },
  { model: 'dcim.device', query: 'cf_count__gt=5', ids: [2] },
  { model: 'dcim.device', query: 'cf_count=5&cf_count=10', ids: [2, 1] },
  { model: 'dcim.device', query: 'cf_count=abc', error: { cf_count: ['Enter a whole number.'] } },
  { model: 'dcim.device', query: 'cf_hidden=x', ids: [4, 5, 3, 2, 1], note: 'filter logic disabled: not a filter' },
  { model: 'dcim.device', query: 'cf_nope=1', ids: [4, 5, 3, 2, 1] },

  // ---- interfaces
  { model: 'dcim.interface', query: '', ids: [4, 3, 2, 1, 5, 6, 7], note: 'natural interface order: eth2 before eth10' },
  { model: 'dcim.interface', query: 'device_id=1', ids: [4, 3, 2, 1, 5] },
  { model: 'dcim.interface', query: 'device=edge2', ids: [6] },
  { model: 'dcim.interface', query: 'device=nope', ids: [] },
  { model: 'dcim.interface', query: 'kind=virtual', ids: [5] },
  { model: 'dcim.interface', query: 'kind=wireless', ids: [7] },
  { model: 'dcim.interface', query: 'kind=PHYSICAL', ids: [4, 3, 2, 1, 6] },
  { model: 'dcim.interface', query: 'kind=bogus', ids: [] },
  { model: 'dcim.interface', query: 'vlan_id=1', ids: [4] },
  { model: 'dcim.interface', query: 'vlan=600', ids: [5] },
  { model: 'dcim.interface', query: 'site=dc-1', ids: [4, 3, 2, 1, 5, 6] },
  { model: 'dcim.interface', query: 'region=asia', ids: [7] },
  { model: 'dcim.interface', query: 'occupied=true', ids: [7] },
  { model: 'dcim.interface', query: 'mac_address=aa:bb:cc:dd:ee:ff', ids: [6] },
  { model: 'dcim.interface', query: 'name__isw=ETH', ids: [3, 2, 1, 6] },

  // ---- prefixes
  { model: 'ipam.prefix', query: '', ids: [7, 1, 3, 4, 5, 6, 2], note: 'VRF (global first), then network order' },
  { model: 'ipam.prefix', query: 'within=10.0.0.0/8', ids: [3, 2] },
  { model: 'ipam.prefix', query: 'within_include=10.0.0.0/8', ids: [1, 3, 6, 2] },
  { model: 'ipam.prefix', query: 'contains=10.1.2.5', ids: [1, 3, 6, 2] },
  { model: 'ipam.prefix', query: 'contains=10.1.0.0/16', ids: [1, 6, 2] },
  { model: 'ipam.prefix', query: 'contains=2001:db8::1', ids: [5] },
  { model: 'ipam.prefix', query: 'prefix=10.0.0.0/8', ids: [1, 6] },
  { model: 'ipam.prefix', query: 'prefix=10.0.0.0/8&prefix=bogus&prefix=9.0.0.0/8', ids: [7, 1, 6] },
  { model: 'ipam.prefix', query: 'prefix=bogus', ids: [] },
  { model: 'ipam.prefix', query: 'within=bogus', ids: [] },
  { model: 'ipam.prefix', query: 'mask_length=8', ids: [7, 1, 6] },
  { model: 'ipam.prefix', query: 'mask_length__gte=16', ids: [3, 4, 5, 2] },
  { model: 'ipam.prefix', query: 'mask_length__lte=16', ids: [7, 1, 4, 6, 2] },
  { model: 'ipam.prefix', query: 'family=6', ids: [5] },
  { model: 'ipam.prefix', query: 'vrf_id=null', ids: [7, 1, 3, 4, 5] },
  { model: 'ipam.prefix', query: 'vrf_id=1', ids: [6, 2] },
  { model: 'ipam.prefix', query: 'vrf=65000:1', ids: [6, 2], note: 'vrf matches the route distinguisher' },
  { model: 'ipam.prefix', query: 'vrf=Internet', error: { vrf: [notOne('Internet')] } },
  { model: 'ipam.prefix', query: 'present_in_vrf_id=1', ids: [6, 2] },
  { model: 'ipam.prefix', query: 'present_in_vrf_id=9', error: { present_in_vrf_id: ['Select a valid choice. That choice is not one of the available choices.'] } },
  { model: 'ipam.prefix', query: 'vlan_vid=100', ids: [2] },
  { model: 'ipam.prefix', query: 'vlan_vid__gte=200', ids: [6] },
  { model: 'ipam.prefix', query: 'region=europe', ids: [3, 2] },
  { model: 'ipam.prefix', query: 'status=container', ids: [1] },
  { model: 'ipam.prefix', query: 'ordering=prefix', ids: [7, 1, 6, 2, 3, 4, 5] },
  { model: 'ipam.prefix', query: 'ordering=-prefix', ids: [5, 4, 3, 2, 1, 6, 7] },

  // ---- IP addresses
  { model: 'ipam.ipaddress', query: '', ids: [7, 6, 1, 8, 3, 2, 4, 5], note: '10.1.2.9 before 10.1.2.10: numeric, not text' },
  { model: 'ipam.ipaddress', query: 'parent=10.1.2.0/24', ids: [1, 8, 3, 2] },
  { model: 'ipam.ipaddress', query: 'parent=10.0.0.0/8', ids: [6, 1, 8, 3, 2] },
  { model: 'ipam.ipaddress', query: 'parent=10.0.0.0/8&parent=192.168.0.0/16', ids: [6, 1, 8, 3, 2, 4] },
  { model: 'ipam.ipaddress', query: 'parent=2001:db8::/32', ids: [5] },
  { model: 'ipam.ipaddress', query: 'parent=bogus', ids: [] },
  { model: 'ipam.ipaddress', query: 'address=10.1.2.3', ids: [1, 8] },
  { model: 'ipam.ipaddress', query: 'address=10.1.2.3/24', ids: [1] },
  { model: 'ipam.ipaddress', query: 'address=bogus', ids: [] },
  { model: 'ipam.ipaddress', query: 'mask_length=32', ids: [7, 8] },
  { model: 'ipam.ipaddress', query: 'mask_length=0', ids: [7, 6, 1, 8, 3, 2, 4, 5] },
  { model: 'ipam.ipaddress', query: 'assigned_to_interface=true', ids: [7, 6] },
  { model: 'ipam.ipaddress', query: 'assigned_to_interface=false', ids: [1, 8, 3, 2, 4, 5] },
  { model: 'ipam.ipaddress', query: 'device_id=2', ids: [6] },
  { model: 'ipam.ipaddress', query: 'device=edge10', ids: [7] },
  { model: 'ipam.ipaddress', query: 'device=nope', ids: [] },
  { model: 'ipam.ipaddress', query: 'interface_id=6', ids: [6] },
  { model: 'ipam.ipaddress', query: 'interface_id__n=6', ids: [7, 1, 8, 3, 2, 4, 5] },
  { model: 'ipam.ipaddress', query: 'interface=eth0', ids: [6] },
  { model: 'ipam.ipaddress', query: 'interface_id=999', error: { interface_id: [notOne('999')] } },
  { model: 'ipam.ipaddress', query: 'vrf_id=1', ids: [6, 2] },
  { model: 'ipam.ipaddress', query: 'status=active&status=dhcp', ids: [7, 6, 1, 8, 2, 4] },
  { model: 'ipam.ipaddress', query: 'dns_name__ic=b.example', ids: [2] },
  { model: 'ipam.ipaddress', query: 'dns_name__ie=b.EXAMPLE.com', ids: [2] },
  { model: 'ipam.ipaddress', query: 'ordering=-address', ids: [5, 4, 2, 3, 8, 1, 6, 7] },
  { model: 'ipam.ipaddress', query: 'ordering=dns_name', ids: [7, 6, 8, 3, 4, 5, 2, 1], note: "bytewise: 'B' before 'a'" },

  // ---- VLANs
  { model: 'ipam.vlan', query: '', ids: [4, 1, 2, 5, 7, 6, 3] },
  { model: 'ipam.vlan', query: 'available_on_device=1', ids: [4, 1, 2, 5, 6] },
  { model: 'ipam.vlan', query: 'available_on_device=3', ids: [4, 5, 7, 3] },
  { model: 'ipam.vlan', query: 'available_on_device=99', error: { available_on_device: ['Select a valid choice. That choice is not one of the available choices.'] } },
  { model: 'ipam.vlan', query: 'group_id=1', ids: [1] },
  { model: 'ipam.vlan', query: 'group=site-vlans', ids: [1] },
  { model: 'ipam.vlan', query: 'site=dc-1', ids: [6] },
  { model: 'ipam.vlangroup', query: 'region=1', ids: [2] },
  { model: 'ipam.vlangroup', query: 'site=1', ids: [1] },

  // ---- ordering
  { model: 'dcim.device', query: 'ordering=name', ids: [4, 5, 3, 2, 1] },
  { model: 'dcim.device', query: 'ordering=-name', ids: [1, 2, 3, 5, 4], note: 'natural: edge10 after edge2' },
  { model: 'dcim.device', query: 'ordering=-status,name', ids: [2, 4, 5, 3, 1] },
  { model: 'dcim.device', query: 'ordering=site,-name', ids: [1, 2, 3, 5, 4] },
  { model: 'dcim.device', query: 'ordering=%20-site%20,%20name', ids: [4, 5, 3, 2, 1], note: 'blanks around terms are stripped' },
  { model: 'dcim.device', query: 'ordering=bogus', ids: [4, 5, 3, 2, 1] },
  { model: 'dcim.device', query: 'ordering=url,display', ids: [4, 5, 3, 2, 1] },
  { model: 'dcim.device', query: 'brief=1&ordering=status', ids: [4, 5, 3, 2, 1], note: 'brief mode orders only by brief fields' },
  { model: 'dcim.device', query: 'brief=1&ordering=-name', ids: [1, 2, 3, 5, 4] },
  { model: 'dcim.device', query: 'ordering=-id', ids: [5, 4, 3, 2, 1] },
  { model: 'dcim.site', query: 'ordering=name', ids: [1, 3, 2] },
  { model: 'dcim.site', query: 'ordering=-facility', ids: [3, 1, 2] },
  { model: 'dcim.interface', query: 'ordering=name', ids: [4, 6, 3, 2, 1, 5, 7] },
  { model: 'dcim.interface', query: 'ordering=-name', ids: [7, 5, 1, 2, 3, 6, 4] },
];
