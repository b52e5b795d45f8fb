"""Record ids: random version-4 UUIDs in the 32-hex-digit form the stores and the viewer use."""

import uuid

from lemmaforge.records import new_id


def test_new_id_is_a_random_version_4_uuid_in_hex() -> None:
    ids = [new_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    for i in ids:
        parsed = uuid.UUID(hex=i)
        assert parsed.hex == i  # 32 lowercase hex digits, no dashes
        assert parsed.version == 4
        assert parsed.variant == uuid.RFC_4122
    # the random bits vary in every position but the fixed version and variant ones
    assert all(len({i[k] for i in ids}) > 1 for k in range(32) if k != 12)
