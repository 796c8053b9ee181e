/** NetBox 3.4's object changes (`/api/extras/object-changes/`) as its API serves them, for the import's tests. */

export const NETBOX_REQUEST = '33333333-3333-4333-8333-333333333333';

/** A change of site `object` made by bob in NETBOX_REQUEST; `pre` and `post` are its snapshots. */
export function netboxChange(
  id: number,
  action: string,
  time: string,
  pre: unknown,
  post: unknown,
  object = 5,
): Record<string, unknown> {
  return {
    id,
    time,
    user: { id: 2, username: 'bob' },
    user_name: 'bob',
    request_id: NETBOX_REQUEST,
    action: { value: action, label: action },
    changed_object_type: 'dcim.site',
    changed_object_id: object,
    related_object_type: null,
    related_object_id: null,
    object_repr: 'DC-5',
    prechange_data: pre,
    postchange_data: post,
  };
}
