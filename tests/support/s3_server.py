"""A real S3-compatible server (moto's) on 127.0.0.1, for the shared-memory tests and bench.

LanceDB talks to it over HTTP exactly as to S3: conditional PUTs (If-None-Match), listings,
ranged reads. `objects()` reads back every object in a bucket, so a test can look for text
in all of them, as a person with the bucket's keys could.
"""

from __future__ import annotations

import logging
import socket
import uuid

REGION = "us-east-1"
KEY = "macaron-test"  # moto accepts any credentials; LanceDB insists on having some


class S3Server:
    def __init__(self):
        from moto.server import ThreadedMotoServer

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one line per request otherwise
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> S3Server:
        self._server.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.stop()

    def env(self) -> dict[str, str]:
        """The standard AWS environment that points a client at this server."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_REGION": REGION,
            "AWS_ACCESS_KEY_ID": KEY,
            "AWS_SECRET_ACCESS_KEY": KEY,
        }

    def client(self):
        import boto3

        return boto3.client(
            "s3", endpoint_url=self.endpoint, region_name=REGION, aws_access_key_id=KEY, aws_secret_access_key=KEY
        )

    def new_bucket(self) -> str:
        name = "memory-" + uuid.uuid4().hex[:12]
        self.client().create_bucket(Bucket=name)
        return name

    def objects(self, bucket: str) -> dict[str, bytes]:
        """Every object in `bucket`, key → bytes."""
        client = self.client()
        found = {}
        for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket):
            for entry in page.get("Contents", []):
                found[entry["Key"]] = client.get_object(Bucket=bucket, Key=entry["Key"])["Body"].read()
        return found
