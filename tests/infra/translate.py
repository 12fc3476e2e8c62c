"""Translate the SAM template to plain CloudFormation offline, with the real SAM translator.

cfn-lint 1.x no longer runs the translator, so on its own it misses errors inside
AWS::Serverless::* resources (a bad runtime, a dangling !Ref). Translating first and
linting the output catches them. No AWS credentials are needed: the code location is a
placeholder and the managed-policy map is empty (the template uses no managed policies).

usage: translate.py TEMPLATE OUT.json
"""

import json
import sys

from samtranslator.translator.transform import transform
from samtranslator.yaml_helper import yaml_parse

PLACEHOLDER_CODE = "s3://placeholder-bucket/code.zip"


class NoManagedPolicies:
    """Stands in for the loader that would ask IAM for AWS managed policy ARNs."""

    def load(self):
        return {}


def main(src: str, dst: str) -> int:
    with open(src, encoding="utf-8") as f:
        template = yaml_parse(f.read())
    for resource in template.get("Resources", {}).values():
        if resource.get("Type") == "AWS::Serverless::Function":
            # `sam build` would replace the local path with the built artifact.
            resource.setdefault("Properties", {})["CodeUri"] = PLACEHOLDER_CODE
    translated = transform(template, {}, NoManagedPolicies())
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(translated, f, indent=2, sort_keys=True)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
