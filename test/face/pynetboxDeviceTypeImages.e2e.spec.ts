/**
 * pynetbox and device-type images: uploaded through its HTTP session (a requests
 * multipart PATCH, pynetbox having no upload call), then read, filtered and edited with
 * pynetbox, whose save() of another field keeps the image. Skipped (with a message)
 * where python3-pynetbox is not installed.
 */
import test from 'ava';

import { PNG_SCRIPT_PRELUDE, pynetboxSkipReason, pynetboxVersion, runPynetbox } from '../support/pynetbox.js';
import { startService } from '../support/startService.js';

const SCRIPT = String.raw`
${PNG_SCRIPT_PRELUDE}
maker = nb.dcim.manufacturers.create(name="Py Maker", slug="py-maker")
box = nb.dcim.device_types.create(manufacturer=maker.id, model="Py Box", slug="py-box")
plain = nb.dcim.device_types.create(manufacturer=maker.id, model="Py Plain", slug="py-plain")
response = nb.http_session.patch(
    url + "/api/dcim/device-types/%d/" % box.id,
    headers={"Authorization": "Token " + token},
    data={"part_number": "PB-1"},
    files={"front_image": ("front.png", png, "image/png")},
)
out["status"] = response.status_code
box = nb.dcim.device_types.get(box.id)
out["part_number"] = box.part_number
out["served"] = nb.http_session.get(box.front_image, headers={"Authorization": "Token " + token}).content == png
out["with"] = [str(t) for t in nb.dcim.device_types.filter(has_front_image=True)]
out["without"] = [str(t) for t in nb.dcim.device_types.filter(has_front_image=False)]
box.comments = "edited"
box.save()
again = nb.dcim.device_types.get(box.id)
out["kept"] = again.front_image == box.front_image and again.comments == "edited"
print(json.dumps(out))
`;

const version = pynetboxVersion();
if (version === null) {
  test.skip(`pynetbox device-type images (skipped: ${pynetboxSkipReason()})`, () => {});
} else {
  test(`pynetbox ${version}: a device-type image uploaded through its session is served, filtered on, and kept by save()`, async (t) => {
    t.timeout(60_000);
    const service = await startService();
    t.teardown(() => service.close());
    const out = await runPynetbox(t, SCRIPT, service);
    t.is(out.status, 200);
    t.is(out.part_number, 'PB-1');
    t.true(out.served, 'the served bytes are the uploaded ones');
    t.deepEqual(out.with, ['Py Box']);
    t.deepEqual(out.without, ['Py Plain']);
    t.true(out.kept);
  });
}
