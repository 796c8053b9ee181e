// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.
import { BEYOND_NETBOX } from '../filterSpecs.js';
import { fieldError, nameOf, nameWithLabel, related } from '../hooks.js';
import { holderFilters } from '../interfaceHolderFilters.js';
import {
  applyVlanMode,
  type InterfaceParent,
  interfaceVlanFilters,
  taggedVlanSiteProblem,
  untaggedVlanSiteProblem,
} from '../interfaceVlans.js';
import { l2vpnFilters, l2vpnTerminationField } from '../ipam/l2vpnTerminationField.js';
import { MATCH_NOTHING } from '../matchNothing.js';
import { DEVICE_HOLDER } from '../primaryIps.js';
import type { Choice, FieldErrors, LookupView, StoredObject, ValidationContext } from '../types.js';
import { normalizeHardwareField } from '../values/hardwareAddress.js';
import { naturalInterfaceKey } from '../values/naturalSortKey.js';
import { cableEndFields, pathEndpointFields } from './cableFields.js';
import { pagePaths } from './cabling/pagePaths.js';
import {
  INTERFACE_MODE_CHOICES,
  INTERFACE_TYPE_CHOICES,
  VIRTUAL_INTERFACE_TYPES as VIRTUAL_TYPES,
  WIRELESS_INTERFACE_TYPES as WIRELESS_TYPES,
} from './choices.js';
import { markConnectedField, poeFields } from './componentFields.js';
import { componentMoveProblem, markedWhileCabledProblem } from './componentParents.js';
import { deviceDisplay } from './device.js';
import { deviceComponentModel } from './deviceComponentModel.js';

const RF_CHANNEL_CHOICES: Choice[] = [
  { value: '2.4g-1-2412-22', label: '1 (2412 MHz)' },
  { value: '2.4g-2-2417-22', label: '2 (2417 MHz)' },
  { value: '2.4g-3-2422-22', label: '3 (2422 MHz)' },
  { value: '2.4g-4-2427-22', label: '4 (2427 MHz)' },
  { value: '2.4g-5-2432-22', label: '5 (2432 MHz)' },
  { value: '2.4g-6-2437-22', label: '6 (2437 MHz)' },
  { value: '2.4g-7-2442-22', label: '7 (2442 MHz)' },
  { value: '2.4g-8-2447-22', label: '8 (2447 MHz)' },
  { value: '2.4g-9-2452-22', label: '9 (2452 MHz)' },
  { value: '2.4g-10-2457-22', label: '10 (2457 MHz)' },
  { value: '2.4g-11-2462-22', label: '11 (2462 MHz)' },
  { value: '2.4g-12-2467-22', label: '12 (2467 MHz)' },
  { value: '2.4g-13-2472-22', label: '13 (2472 MHz)' },
  { value: '5g-32-5160-20', label: '32 (5160/20 MHz)' },
  { value: '5g-34-5170-40', label: '34 (5170/40 MHz)' },
  { value: '5g-36-5180-20', label: '36 (5180/20 MHz)' },
  { value: '5g-38-5190-40', label: '38 (5190/40 MHz)' },
  { value: '5g-40-5200-20', label: '40 (5200/20 MHz)' },
  { value: '5g-42-5210-80', label: '42 (5210/80 MHz)' },
  { value: '5g-44-5220-20', label: '44 (5220/20 MHz)' },
  { value: '5g-46-5230-40', label: '46 (5230/40 MHz)' },
  { value: '5g-48-5240-20', label: '48 (5240/20 MHz)' },
  { value: '5g-50-5250-160', label: '50 (5250/160 MHz)' },
  { value: '5g-52-5260-20', label: '52 (5260/20 MHz)' },
  { value: '5g-54-5270-40', label: '54 (5270/40 MHz)' },
  { value: '5g-56-5280-20', label: '56 (5280/20 MHz)' },
  { value: '5g-58-5290-80', label: '58 (5290/80 MHz)' },
  { value: '5g-60-5300-20', label: '60 (5300/20 MHz)' },
  { value: '5g-62-5310-40', label: '62 (5310/40 MHz)' },
  { value: '5g-64-5320-20', label: '64 (5320/20 MHz)' },
  { value: '5g-100-5500-20', label: '100 (5500/20 MHz)' },
  { value: '5g-102-5510-40', label: '102 (5510/40 MHz)' },
  { value: '5g-104-5520-20', label: '104 (5520/20 MHz)' },
  { value: '5g-106-5530-80', label: '106 (5530/80 MHz)' },
  { value: '5g-108-5540-20', label: '108 (5540/20 MHz)' },
  { value: '5g-110-5550-40', label: '110 (5550/40 MHz)' },
  { value: '5g-112-5560-20', label: '112 (5560/20 MHz)' },
  { value: '5g-114-5570-160', label: '114 (5570/160 MHz)' },
  { value: '5g-116-5580-20', label: '116 (5580/20 MHz)' },
  { value: '5g-118-5590-40', label: '118 (5590/40 MHz)' },
  { value: '5g-120-5600-20', label: '120 (5600/20 MHz)' },
  { value: '5g-122-5610-80', label: '122 (5610/80 MHz)' },
  { value: '5g-124-5620-20', label: '124 (5620/20 MHz)' },
  { value: '5g-126-5630-40', label: '126 (5630/40 MHz)' },
  { value: '5g-128-5640-20', label: '128 (5640/20 MHz)' },
  { value: '5g-132-5660-20', label: '132 (5660/20 MHz)' },
  { value: '5g-134-5670-40', label: '134 (5670/40 MHz)' },
  { value: '5g-136-5680-20', label: '136 (5680/20 MHz)' },
  { value: '5g-138-5690-80', label: '138 (5690/80 MHz)' },
  { value: '5g-140-5700-20', label: '140 (5700/20 MHz)' },
  { value: '5g-142-5710-40', label: '142 (5710/40 MHz)' },
  { value: '5g-144-5720-20', label: '144 (5720/20 MHz)' },
  { value: '5g-149-5745-20', label: '149 (5745/20 MHz)' },
  { value: '5g-151-5755-40', label: '151 (5755/40 MHz)' },
  { value: '5g-153-5765-20', label: '153 (5765/20 MHz)' },
  { value: '5g-155-5775-80', label: '155 (5775/80 MHz)' },
  { value: '5g-157-5785-20', label: '157 (5785/20 MHz)' },
  { value: '5g-159-5795-40', label: '159 (5795/40 MHz)' },
  { value: '5g-161-5805-20', label: '161 (5805/20 MHz)' },
  { value: '5g-163-5815-160', label: '163 (5815/160 MHz)' },
  { value: '5g-165-5825-20', label: '165 (5825/20 MHz)' },
  { value: '5g-167-5835-40', label: '167 (5835/40 MHz)' },
  { value: '5g-169-5845-20', label: '169 (5845/20 MHz)' },
  { value: '5g-171-5855-80', label: '171 (5855/80 MHz)' },
  { value: '5g-173-5865-20', label: '173 (5865/20 MHz)' },
  { value: '5g-175-5875-40', label: '175 (5875/40 MHz)' },
  { value: '5g-177-5885-20', label: '177 (5885/20 MHz)' },
  { value: '6g-1-5955-20', label: '1 (5955/20 MHz)' },
  { value: '6g-3-5965-40', label: '3 (5965/40 MHz)' },
  { value: '6g-5-5975-20', label: '5 (5975/20 MHz)' },
  { value: '6g-7-5985-80', label: '7 (5985/80 MHz)' },
  { value: '6g-9-5995-20', label: '9 (5995/20 MHz)' },
  { value: '6g-11-6005-40', label: '11 (6005/40 MHz)' },
  { value: '6g-13-6015-20', label: '13 (6015/20 MHz)' },
  { value: '6g-15-6025-160', label: '15 (6025/160 MHz)' },
  { value: '6g-17-6035-20', label: '17 (6035/20 MHz)' },
  { value: '6g-19-6045-40', label: '19 (6045/40 MHz)' },
  { value: '6g-21-6055-20', label: '21 (6055/20 MHz)' },
  { value: '6g-23-6065-80', label: '23 (6065/80 MHz)' },
  { value: '6g-25-6075-20', label: '25 (6075/20 MHz)' },
  { value: '6g-27-6085-40', label: '27 (6085/40 MHz)' },
  { value: '6g-29-6095-20', label: '29 (6095/20 MHz)' },
  { value: '6g-31-6105-320', label: '31 (6105/320 MHz)' },
  { value: '6g-33-6115-20', label: '33 (6115/20 MHz)' },
  { value: '6g-35-6125-40', label: '35 (6125/40 MHz)' },
  { value: '6g-37-6135-20', label: '37 (6135/20 MHz)' },
  { value: '6g-39-6145-80', label: '39 (6145/80 MHz)' },
  { value: '6g-41-6155-20', label: '41 (6155/20 MHz)' },
  { value: '6g-43-6165-40', label: '43 (6165/40 MHz)' },
  { value: '6g-45-6175-20', label: '45 (6175/20 MHz)' },
  { value: '6g-47-6185-160', label: '47 (6185/160 MHz)' },
  { value: '6g-49-6195-20', label: '49 (6195/20 MHz)' },
  { value: '6g-51-6205-40', label: '51 (6205/40 MHz)' },
  { value: '6g-53-6215-20', label: '53 (6215/20 MHz)' },
  { value: '6g-55-6225-80', label: '55 (6225/80 MHz)' },
  { value: '6g-57-6235-20', label: '57 (6235/20 MHz)' },
  { value: '6g-59-6245-40', label: '59 (6245/40 MHz)' },
  { value: '6g-61-6255-20', label: '61 (6255/20 MHz)' },
  { value: '6g-65-6275-20', label: '65 (6275/20 MHz)' },
  { value: '6g-67-6285-40', label: '67 (6285/40 MHz)' },
  { value: '6g-69-6295-20', label: '69 (6295/20 MHz)' },
  { value: '6g-71-6305-80', label: '71 (6305/80 MHz)' },
  { value: '6g-73-6315-20', label: '73 (6315/20 MHz)' },
  { value: '6g-75-6325-40', label: '75 (6325/40 MHz)' },
  { value: '6g-77-6335-20', label: '77 (6335/20 MHz)' },
  { value: '6g-79-6345-160', label: '79 (6345/160 MHz)' },
  { value: '6g-81-6355-20', label: '81 (6355/20 MHz)' },
  { value: '6g-83-6365-40', label: '83 (6365/40 MHz)' },
  { value: '6g-85-6375-20', label: '85 (6375/20 MHz)' },
  { value: '6g-87-6385-80', label: '87 (6385/80 MHz)' },
  { value: '6g-89-6395-20', label: '89 (6395/20 MHz)' },
  { value: '6g-91-6405-40', label: '91 (6405/40 MHz)' },
  { value: '6g-93-6415-20', label: '93 (6415/20 MHz)' },
  { value: '6g-95-6425-320', label: '95 (6425/320 MHz)' },
  { value: '6g-97-6435-20', label: '97 (6435/20 MHz)' },
  { value: '6g-99-6445-40', label: '99 (6445/40 MHz)' },
  { value: '6g-101-6455-20', label: '101 (6455/20 MHz)' },
  { value: '6g-103-6465-80', label: '103 (6465/80 MHz)' },
  { value: '6g-105-6475-20', label: '105 (6475/20 MHz)' },
  { value: '6g-107-6485-40', label: '107 (6485/40 MHz)' },
  { value: '6g-109-6495-20', label: '109 (6495/20 MHz)' },
  { value: '6g-111-6505-160', label: '111 (6505/160 MHz)' },
  { value: '6g-113-6515-20', label: '113 (6515/20 MHz)' },
  { value: '6g-115-6525-40', label: '115 (6525/40 MHz)' },
  { value: '6g-117-6535-20', label: '117 (6535/20 MHz)' },
  { value: '6g-119-6545-80', label: '119 (6545/80 MHz)' },
  { value: '6g-121-6555-20', label: '121 (6555/20 MHz)' },
  { value: '6g-123-6565-40', label: '123 (6565/40 MHz)' },
  { value: '6g-125-6575-20', label: '125 (6575/20 MHz)' },
  { value: '6g-129-6595-20', label: '129 (6595/20 MHz)' },
  { value: '6g-131-6605-40', label: '131 (6605/40 MHz)' },
  { value: '6g-133-6615-20', label: '133 (6615/20 MHz)' },
  { value: '6g-135-6625-80', label: '135 (6625/80 MHz)' },
  { value: '6g-137-6635-20', label: '137 (6635/20 MHz)' },
  { value: '6g-139-6645-40', label: '139 (6645/40 MHz)' },
  { value: '6g-141-6655-20', label: '141 (6655/20 MHz)' },
  { value: '6g-143-6665-160', label: '143 (6665/160 MHz)' },
  { value: '6g-145-6675-20', label: '145 (6675/20 MHz)' },
  { value: '6g-147-6685-40', label: '147 (6685/40 MHz)' },
  { value: '6g-149-6695-20', label: '149 (6695/20 MHz)' },
  { value: '6g-151-6705-80', label: '151 (6705/80 MHz)' },
  { value: '6g-153-6715-20', label: '153 (6715/20 MHz)' },
  { value: '6g-155-6725-40', label: '155 (6725/40 MHz)' },
  { value: '6g-157-6735-20', label: '157 (6735/20 MHz)' },
  { value: '6g-159-6745-320', label: '159 (6745/320 MHz)' },
  { value: '6g-161-6755-20', label: '161 (6755/20 MHz)' },
  { value: '6g-163-6765-40', label: '163 (6765/40 MHz)' },
  { value: '6g-165-6775-20', label: '165 (6775/20 MHz)' },
  { value: '6g-167-6785-80', label: '167 (6785/80 MHz)' },
  { value: '6g-169-6795-20', label: '169 (6795/20 MHz)' },
  { value: '6g-171-6805-40', label: '171 (6805/40 MHz)' },
  { value: '6g-173-6815-20', label: '173 (6815/20 MHz)' },
  { value: '6g-175-6825-160', label: '175 (6825/160 MHz)' },
  { value: '6g-177-6835-20', label: '177 (6835/20 MHz)' },
  { value: '6g-179-6845-40', label: '179 (6845/40 MHz)' },
  { value: '6g-181-6855-20', label: '181 (6855/20 MHz)' },
  { value: '6g-183-6865-80', label: '183 (6865/80 MHz)' },
  { value: '6g-185-6875-20', label: '185 (6875/20 MHz)' },
  { value: '6g-187-6885-40', label: '187 (6885/40 MHz)' },
  { value: '6g-189-6895-20', label: '189 (6895/20 MHz)' },
  { value: '6g-193-6915-20', label: '193 (6915/20 MHz)' },
  { value: '6g-195-6925-40', label: '195 (6925/40 MHz)' },
  { value: '6g-197-6935-20', label: '197 (6935/20 MHz)' },
  { value: '6g-199-6945-80', label: '199 (6945/80 MHz)' },
  { value: '6g-201-6955-20', label: '201 (6955/20 MHz)' },
  { value: '6g-203-6965-40', label: '203 (6965/40 MHz)' },
  { value: '6g-205-6975-20', label: '205 (6975/20 MHz)' },
  { value: '6g-207-6985-160', label: '207 (6985/160 MHz)' },
  { value: '6g-209-6995-20', label: '209 (6995/20 MHz)' },
  { value: '6g-211-7005-40', label: '211 (7005/40 MHz)' },
  { value: '6g-213-7015-20', label: '213 (7015/20 MHz)' },
  { value: '6g-215-7025-80', label: '215 (7025/80 MHz)' },
  { value: '6g-217-7035-20', label: '217 (7035/20 MHz)' },
  { value: '6g-219-7045-40', label: '219 (7045/40 MHz)' },
  { value: '6g-221-7055-20', label: '221 (7055/20 MHz)' },
  { value: '6g-225-7075-20', label: '225 (7075/20 MHz)' },
  { value: '6g-227-7085-40', label: '227 (7085/40 MHz)' },
  { value: '6g-229-7095-20', label: '229 (7095/20 MHz)' },
  { value: '6g-233-7115-20', label: '233 (7115/20 MHz)' },
  { value: '60g-1-58320-2160', label: '1 (58.32/2.16 GHz)' },
  { value: '60g-2-60480-2160', label: '2 (60.48/2.16 GHz)' },
  { value: '60g-3-62640-2160', label: '3 (62.64/2.16 GHz)' },
  { value: '60g-4-64800-2160', label: '4 (64.80/2.16 GHz)' },
  { value: '60g-5-66960-2160', label: '5 (66.96/2.16 GHz)' },
  { value: '60g-6-69120-2160', label: '6 (69.12/2.16 GHz)' },
  { value: '60g-9-59400-4320', label: '9 (59.40/4.32 GHz)' },
  { value: '60g-10-61560-4320', label: '10 (61.56/4.32 GHz)' },
  { value: '60g-11-63720-4320', label: '11 (63.72/4.32 GHz)' },
  { value: '60g-12-65880-4320', label: '12 (65.88/4.32 GHz)' },
  { value: '60g-13-68040-4320', label: '13 (68.04/4.32 GHz)' },
  { value: '60g-17-60480-6480', label: '17 (60.48/6.48 GHz)' },
  { value: '60g-18-62640-6480', label: '18 (62.64/6.48 GHz)' },
  { value: '60g-19-64800-6480', label: '19 (64.80/6.48 GHz)' },
  { value: '60g-20-66960-6480', label: '20 (66.96/6.48 GHz)' },
  { value: '60g-25-61560-6480', label: '25 (61.56/8.64 GHz)' },
  { value: '60g-26-63720-6480', label: '26 (63.72/8.64 GHz)' },
  { value: '60g-27-65880-6480', label: '27 (65.88/8.64 GHz)' },
];

/** A related interface (parent, bridge, lag) must be on the same device or another member of its virtual chassis. */
async function sameDevice(
  obj: StoredObject,
  view: LookupView,
  field: 'parent' | 'bridge' | 'lag',
  what: string,
): Promise<FieldErrors | void> {
  const other = await related(view, 'dcim.interface', obj[field]);
  if (!other || other.device === obj.device) return;
  const device = await related(view, 'dcim.device', obj.device);
  const otherDevice = await related(view, 'dcim.device', other.device);
  if (device?.virtual_chassis != null && otherDevice?.virtual_chassis === device.virtual_chassis) return;
  const deviceName = otherDevice ? await deviceDisplay(otherDevice, view) : 'None';
  if (device?.virtual_chassis != null) {
    const chassis = await related(view, 'dcim.virtualchassis', device.virtual_chassis);
    return fieldError(
      field,
      `The selected ${what} interface (${nameWithLabel(other)}) belongs to ${deviceName}, which is not part of virtual chassis ${nameOf(chassis)}.`,
    );
  }
  return fieldError(
    field,
    `The selected ${what} interface (${nameWithLabel(other)}) belongs to a different device (${deviceName}).`,
  );
}

/** The interface's device as the VLAN rules see it. */
async function parentDevice(obj: StoredObject, view: LookupView): Promise<InterfaceParent> {
  const device = await related(view, 'dcim.device', obj.device);
  return { site: device?.site ?? null, noun: 'device' };
}

/** The serializer's check of the tagged VLANs sent, then the local, cheap part of NetBox's Interface.clean(); the first failing rule wins. */
async function validateInterface(
  obj: StoredObject,
  view: LookupView,
  previous: StoredObject | null,
  context?: ValidationContext,
): Promise<FieldErrors | void> {
  const written = context?.written;
  const device = await parentDevice(obj, view);
  const tagged = await taggedVlanSiteProblem(obj, view, device, written);
  if (tagged) return tagged;
  const moved = componentMoveProblem(obj, previous);
  if (moved) return moved;
  const type = String(obj.type ?? '');
  const isVirtual = VIRTUAL_TYPES.has(type);
  const isWireless = WIRELESS_TYPES.has(type);
  const label = INTERFACE_TYPE_CHOICES.find((choice) => choice.value === type)?.label ?? type;
  if (isVirtual && obj.cable != null) return fieldError('type', `${label} interfaces cannot have a cable attached.`);
  const cabled = markedWhileCabledProblem(obj);
  if (cabled) return cabled;
  if (isVirtual && obj.mark_connected) {
    return fieldError('mark_connected', `${label} interfaces cannot be marked as connected.`);
  }
  if (obj.parent != null && obj.parent === obj.id) {
    return fieldError('parent', 'An interface cannot be its own parent.');
  }
  if (obj.parent != null && type !== 'virtual') {
    return fieldError('parent', 'Only virtual interfaces may be assigned to a parent interface.');
  }
  const parent = await sameDevice(obj, view, 'parent', 'parent');
  if (parent) return parent;
  if (obj.bridge != null && obj.bridge === obj.id) {
    return fieldError('bridge', 'An interface cannot be bridged to itself.');
  }
  const bridge = await sameDevice(obj, view, 'bridge', 'bridge');
  if (bridge) return bridge;
  if (obj.lag != null && type === 'virtual') {
    return fieldError('lag', 'Virtual interfaces cannot have a parent LAG interface.');
  }
  if (obj.lag != null && obj.lag === obj.id) return fieldError('lag', 'A LAG interface cannot be its own parent.');
  const lag = await sameDevice(obj, view, 'lag', 'LAG');
  if (lag) return lag;
  if (obj.poe_mode && isVirtual) return fieldError('poe_mode', 'Virtual interfaces cannot have a PoE mode.');
  if (obj.poe_type && isVirtual) return fieldError('poe_type', 'Virtual interfaces cannot have a PoE type.');
  if (obj.poe_type && !obj.poe_mode) {
    return fieldError('poe_type', 'Must specify PoE mode when designating a PoE type.');
  }
  if (!isWireless) {
    if (obj.rf_role) return fieldError('rf_role', 'Wireless role may be set only on wireless interfaces.');
    if (obj.rf_channel) return fieldError('rf_channel', 'Channel may be set only on wireless interfaces.');
    if (obj.rf_channel_frequency) {
      return fieldError('rf_channel_frequency', 'Channel frequency may be set only on wireless interfaces.');
    }
    if (obj.rf_channel_width) {
      return fieldError('rf_channel_width', 'Channel width may be set only on wireless interfaces.');
    }
  }
  return untaggedVlanSiteProblem(obj, view, device);
}

export const interfaceModel = deviceComponentModel({
  key: 'dcim.interface',
  path: 'interfaces',
  verboseName: 'interface',
  cabling: 'endpoint',
  modular: true,
  beforeName: [{ name: 'vdcs', type: 'm2m', target: 'dcim.virtualdevicecontext' }],
  fields: [
    { name: 'type', type: 'choice', required: true, choices: INTERFACE_TYPE_CHOICES },
    { name: 'enabled', type: 'boolean', default: true },
    { name: 'parent', type: 'fk', target: 'dcim.interface', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'bridge', type: 'fk', target: 'dcim.interface', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'lag', type: 'fk', target: 'dcim.interface', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'mtu', type: 'integer', nullable: true, default: null, min: 1, max: 65536 },
    { name: 'mac_address', type: 'mac_address', nullable: true, default: null },
    { name: 'speed', type: 'integer', nullable: true, default: null, min: 0, max: 2147483647 },
    {
      name: 'duplex',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: [
        { value: 'half', label: 'Half' },
        { value: 'full', label: 'Full' },
        { value: 'auto', label: 'Auto' },
      ],
    },
    { name: 'wwn', type: 'wwn', nullable: true, default: null },
    { name: 'mgmt_only', type: 'boolean', default: false },
  ],
  afterDescription: [
    {
      name: 'mode',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: INTERFACE_MODE_CHOICES,
    },
    {
      name: 'rf_role',
      type: 'choice',
      blank: true,
      emptyAsNull: true,
      default: '',
      choices: [
        { value: 'ap', label: 'Access point' },
        { value: 'station', label: 'Station' },
      ],
    },
    { name: 'rf_channel', type: 'choice', blank: true, emptyAsNull: true, default: '', choices: RF_CHANNEL_CHOICES },
    ...poeFields,
    { name: 'rf_channel_frequency', type: 'decimal', nullable: true, default: null, maxDigits: 7, decimalPlaces: 2 },
    { name: 'rf_channel_width', type: 'decimal', nullable: true, default: null, maxDigits: 7, decimalPlaces: 3 },
    { name: 'tx_power', type: 'integer', nullable: true, default: null, min: 0, max: 127 },
    { name: 'untagged_vlan', type: 'fk', target: 'ipam.vlan', onDelete: 'SET_NULL', nullable: true, default: null },
    { name: 'tagged_vlans', type: 'm2m', target: 'ipam.vlan' },
  ],
  cableFields: [
    markConnectedField,
    ...cableEndFields.slice(0, 2),
    {
      name: 'wireless_link',
      type: 'fk',
      target: 'wireless.wirelesslink',
      onDelete: 'SET_NULL',
      readOnly: true,
      nullable: true,
      default: null,
    },
    ...cableEndFields.slice(2),
    { name: 'wireless_lans', type: 'm2m', target: 'wireless.wirelesslan' },
    { name: 'vrf', type: 'fk', target: 'ipam.vrf', onDelete: 'SET_NULL', nullable: true, default: null },
    l2vpnTerminationField('dcim.interface'),
    ...pathEndpointFields,
    // NetBox 2.x's connection state, still read by clients of that API in the nested form.
    {
      name: 'connection_status',
      type: 'computed',
      readOnly: true,
      nullable: true,
      value: null,
      help: "The state of the interface's connection, {value: true, label: 'Connected'} or {value: false, label: 'Not Connected'}; null without a cable path.",
      dependsOn: ['dcim.cable', 'dcim.frontport', 'dcim.rearport', 'circuits.circuittermination'],
      computeMany: async (objs, view, model, memo) =>
        (await pagePaths(objs, view, model, memo)).map((path) => {
          if (!path) return null;
          const connected = path.isComplete && path.isActive;
          return { value: connected, label: connected ? 'Connected' : 'Not Connected' };
        }),
    },
  ],
  last: [
    {
      name: 'count_ipaddresses',
      type: 'count',
      readOnly: true,
      count: { model: 'ipam.ipaddress', via: 'assigned_object_id', where: { assigned_object_type: 'dcim.interface' } },
    },
    {
      name: 'count_fhrp_groups',
      type: 'count',
      readOnly: true,
      count: { model: 'ipam.fhrpgroupassignment', via: 'interface_id', where: { interface_type: 'dcim.interface' } },
    },
  ],
  brief: ['id', 'url', 'display', 'device', 'name', 'cable', 'connection_status', '_occupied'],
  filters: {
    // NetBox: by id, any chassis member brings the chassis's interfaces; by name, only its master
    ...holderFilters('device', DEVICE_HOLDER, 'self', true),
    kind: { kind: 'method', single: true, method: filterKind },
    ...interfaceVlanFilters,
    vrf: { kind: 'related', target: 'ipam.vrf', by: 'rd', path: ['vrf'] },
    ...l2vpnFilters,
    vdc_id: { kind: 'related', target: 'dcim.virtualdevicecontext', path: ['vdcs'] },
    vdc_identifier: { kind: 'related', target: 'dcim.virtualdevicecontext', by: 'identifier', path: ['vdcs'] },
    vdc: { kind: 'related', target: 'dcim.virtualdevicecontext', by: 'name', path: ['vdcs'] },
    wireless_link_id: BEYOND_NETBOX,
    wireless_lans_id: BEYOND_NETBOX,
    vdcs_id: false,
    vdcs: false,
    parent: false,
    bridge: false,
    lag: false,
    untagged_vlan_id: false,
    untagged_vlan: false,
    tagged_vlans_id: false,
    tagged_vlans: false,
  },
  hooks: {
    derive: (obj) => ({ _name: naturalInterfaceKey(obj.name) }),
    normalize(obj) {
      const errors: FieldErrors = {};
      const mac = normalizeHardwareField(obj, 'mac_address', 'MAC');
      if (mac) errors.mac_address = [mac];
      const wwn = normalizeHardwareField(obj, 'wwn', 'WWN');
      if (wwn) errors.wwn = [wwn];
      if (Object.keys(errors).length) return errors;
    },
    // Its own order of rules: the tagged VLANs sent are checked before the device is
    validate: validateInterface,
    beforeSave: applyVlanMode,
  },
});

/* ------------------------------------------------------------ list filters */

/** physical | virtual | wireless (case-insensitive); anything else matches nothing. */
function filterKind([kind]: Array<string | number | boolean>): Record<string, unknown> {
  switch (String(kind).toLowerCase()) {
    case 'physical':
      return { type: { $nin: [...VIRTUAL_TYPES, ...WIRELESS_TYPES] } };
    case 'virtual':
      return { type: { $in: [...VIRTUAL_TYPES] } };
    case 'wireless':
      return { type: { $in: [...WIRELESS_TYPES] } };
    default:
      return MATCH_NOTHING;
  }
}
