/**
 * Every model definition, in registration order (by app, parents before children).
 */
import { circuit } from './circuits/circuit.js';
import { circuittermination } from './circuits/circuittermination.js';
import { circuittype } from './circuits/circuittype.js';
import { provider } from './circuits/provider.js';
import { providernetwork } from './circuits/providernetwork.js';
import { cable } from './dcim/cable.js';
import { cabletermination } from './dcim/cabletermination.js';
// dcim: console and power components and their templates
import { consoleport } from './dcim/consoleport.js';
import { consoleporttemplate } from './dcim/consoleporttemplate.js';
import { consoleserverport } from './dcim/consoleserverport.js';
import { consoleserverporttemplate } from './dcim/consoleserverporttemplate.js';
import { device } from './dcim/device.js';
import { devicebay } from './dcim/devicebay.js';
import { devicebaytemplate } from './dcim/devicebaytemplate.js';
import { devicerole } from './dcim/devicerole.js';
import { devicetype } from './dcim/devicetype.js';
import { frontport } from './dcim/frontport.js';
import { frontporttemplate } from './dcim/frontporttemplate.js';
import { interfaceModel } from './dcim/interface.js';
import { interfacetemplate } from './dcim/interfacetemplate.js';
import { inventoryitem } from './dcim/inventoryitem.js';
import { inventoryitemrole } from './dcim/inventoryitemrole.js';
import { inventoryitemtemplate } from './dcim/inventoryitemtemplate.js';
import { location } from './dcim/location.js';
import { manufacturer } from './dcim/manufacturer.js';
import { module } from './dcim/module.js';
import { modulebay } from './dcim/modulebay.js';
import { modulebaytemplate } from './dcim/modulebaytemplate.js';
import { moduletype } from './dcim/moduletype.js';
import { platform } from './dcim/platform.js';
import { powerfeed } from './dcim/powerfeed.js';
import { poweroutlet } from './dcim/poweroutlet.js';
import { poweroutlettemplate } from './dcim/poweroutlettemplate.js';
import { powerpanel } from './dcim/powerpanel.js';
import { powerport } from './dcim/powerport.js';
import { powerporttemplate } from './dcim/powerporttemplate.js';
import { rack } from './dcim/rack.js';
import { rackreservation } from './dcim/rackreservation.js';
import { rackrole } from './dcim/rackrole.js';
import { rearport } from './dcim/rearport.js';
import { rearporttemplate } from './dcim/rearporttemplate.js';
import { region } from './dcim/region.js';
import { site } from './dcim/site.js';
import { sitegroup } from './dcim/sitegroup.js';
import { virtualchassis } from './dcim/virtualchassis.js';
import { virtualdevicecontext } from './dcim/virtualdevicecontext.js';
import { configcontext } from './extras/configcontext.js';
import { customfield } from './extras/customfield.js';
import { customlink } from './extras/customlink.js';
import { exporttemplate } from './extras/exporttemplate.js';
import { imageattachment } from './extras/imageattachment.js';
import { jobresult } from './extras/jobresult.js';
import { journalentry } from './extras/journalentry.js';
import { savedfilter } from './extras/savedfilter.js';
import { tag } from './extras/tag.js';
import { webhook } from './extras/webhook.js';
import { aggregate } from './ipam/aggregate.js';
import { asn } from './ipam/asn.js';
import { fhrpgroup } from './ipam/fhrpgroup.js';
import { fhrpgroupassignment } from './ipam/fhrpgroupassignment.js';
import { ipaddress } from './ipam/ipaddress.js';
import { iprange } from './ipam/iprange.js';
import { l2vpn } from './ipam/l2vpn.js';
import { l2vpntermination } from './ipam/l2vpntermination.js';
import { prefix } from './ipam/prefix.js';
import { rir } from './ipam/rir.js';
import { role } from './ipam/role.js';
import { routetarget } from './ipam/routetarget.js';
import { service } from './ipam/service.js';
import { servicetemplate } from './ipam/servicetemplate.js';
import { vlan } from './ipam/vlan.js';
import { vlangroup } from './ipam/vlangroup.js';
import { vrf } from './ipam/vrf.js';
import type { ModelDefinition } from './modelDefinition.js';
import { contact } from './tenancy/contact.js';
import { contactassignment } from './tenancy/contactassignment.js';
import { contactgroup } from './tenancy/contactgroup.js';
import { contactrole } from './tenancy/contactrole.js';
import { tenant } from './tenancy/tenant.js';
import { tenantgroup } from './tenancy/tenantgroup.js';
import { group } from './users/group.js';
import { objectpermission } from './users/objectpermission.js';
import { token } from './users/token.js';
import { user } from './users/user.js';
import { cluster } from './virtualization/cluster.js';
import { clustergroup } from './virtualization/clustergroup.js';
import { clustertype } from './virtualization/clustertype.js';
import { virtualmachine } from './virtualization/virtualmachine.js';
import { vminterface } from './virtualization/vminterface.js';
import { wirelesslan } from './wireless/wirelesslan.js';
import { wirelesslangroup } from './wireless/wirelesslangroup.js';
import { wirelesslink } from './wireless/wirelesslink.js';

export const allModels: ModelDefinition[] = [
  // tenancy
  tenantgroup,
  tenant,
  contactrole,
  // dcim
  region,
  sitegroup,
  site,
  location,
  rackrole,
  rack,
  manufacturer,
  devicetype,
  devicerole,
  platform,
  device,
  interfaceModel,
  powerpanel,
  powerfeed,
  virtualchassis,
  virtualdevicecontext,
  rackreservation,
  // dcim: console and power components and their templates
  consoleporttemplate,
  consoleserverporttemplate,
  powerporttemplate,
  poweroutlettemplate,
  consoleport,
  consoleserverport,
  powerport,
  poweroutlet,
  moduletype,
  modulebaytemplate,
  modulebay,
  module,
  interfacetemplate,
  rearporttemplate,
  frontporttemplate,
  rearport,
  frontport,
  devicebaytemplate,
  devicebay,
  inventoryitemrole,
  inventoryitemtemplate,
  inventoryitem,
  // dcim: cables, between any of the cabled objects above
  cable,
  cabletermination,
  // ipam
  vrf,
  rir,
  aggregate,
  role,
  vlangroup,
  vlan,
  prefix,
  ipaddress,
  // circuits
  provider,
  circuittype,
  circuit,
  providernetwork,
  circuittermination,
  // extras
  tag,
  customfield,
  configcontext,
  // users
  group,
  user,
  token,
  objectpermission,
  // virtualization
  clustertype,
  clustergroup,
  cluster,
  virtualmachine,
  vminterface,
  // added later: appended, so that earlier models keep their content-type ids
  contactgroup,
  contact,
  contactassignment,
  asn,
  routetarget,
  servicetemplate,
  service,
  fhrpgroup,
  fhrpgroupassignment,
  iprange,
  l2vpn,
  l2vpntermination,
  wirelesslangroup,
  wirelesslan,
  wirelesslink,
  journalentry,
  savedfilter,
  customlink,
  jobresult,
  webhook,
  exporttemplate,
  imageattachment,
];
