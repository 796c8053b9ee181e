/**
 * pynetbox and image attachments: pynetbox has no upload call of its own, so scripts
 * upload through its HTTP session (a requests multipart POST, as NetBox's docs show),
 * then read, filter, rename and delete the attachment with pynetbox. Debian's
 * python3-pynetbox run by /usr/bin/python3; skipped (with a message) where it is not
 * installed.
 */
import test from 'ava';

import { PNG_SCRIPT_PRELUDE, pynetboxSkipReason, pynetboxVersion, runPynetbox } from '../support/pynetbox.js';
import { startService } from '../support/startService.js';

const SCRIPT = String.raw`
${PNG_SCRIPT_PRELUDE}
site = nb.dcim.sites.create(name="Py Site", slug="py-site")
response = nb.http_session.post(
    url + "/api/extras/image-attachments/",
    headers={"Authorization": "Token " + token},
    data={"content_type": "dcim.site", "object_id": site.id, "name": "floor plan"},
    files={"image": ("plan.png", png, "image/png")},
)
out["status"] = response.status_code
created = response.json()
attachment = nb.extras.image_attachments.get(created["id"])
out["read"] = [str(attachment), attachment.image_width, attachment.image_height, attachment.parent.name]
out["served"] = nb.http_session.get(attachment.image, headers={"Authorization": "Token " + token}).content == png
out["filtered"] = [str(a) for a in nb.extras.image_attachments.filter(content_type="dcim.site", object_id=site.id)]
attachment.name = "plan v2"
attachment.save()
out["renamed"] = str(nb.extras.image_attachments.get(created["id"]))
attachment.delete()
out["after"] = nb.extras.image_attachments.count()
print(json.dumps(out))
`;

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox image attachments (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${version}: an image uploaded through its session is read, filtered, renamed and deleted with nb.extras.image_attachments`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.is(out.status, 201);
    t.deepEqual(out.read, ['floor plan', 4, 3, 'Py Site']);
    t.true(out.served, 'the served bytes are the uploaded ones');
    t.deepEqual(out.filtered, ['floor plan']);
    t.is(out.renamed, 'plan v2');
    t.is(out.after, 0);
  });
}
