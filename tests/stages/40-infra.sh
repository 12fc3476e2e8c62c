# Offline checks of the deployment template (infra/template.yaml); no AWS account.
# 1. cfn-lint on the SAM template;
# 2. the real SAM translator turns it into plain CloudFormation (cfn-lint 1.x does not
#    translate, so it misses errors inside AWS::Serverless::* resources), then cfn-lint
#    on that output;
# 3. property checks (tests/infra/check_template.py): routes, arm64, PITR, deletion
#    protection, TTL, Retain, IAM without wildcard actions and matching the store's
#    calls, env names of the configuration contract, the KMS signing key and its
#    two actions, the Cognito sign-in defaults.
# Tools are pinned and installed once into a venv under $DOCHIYA_BUILD_DIR.

infra_stage() {
  local venv="$DOCHIYA_BUILD_DIR/venv-infra"
  local out="$DOCHIYA_BUILD_DIR/infra"
  local pins="cfn-lint==1.58.0 aws-sam-translator==1.115.0"

  if [[ ! -x "$venv/bin/cfn-lint" || "$(cat "$venv/.pins" 2>/dev/null)" != "$pins" ]]; then
    echo "infra: installing $pins"
    rm -rf "$venv"
    python3 -m venv "$venv"
    # shellcheck disable=SC2086 # the pins are separate words on purpose
    "$venv/bin/pip" install --quiet --disable-pip-version-check $pins
    echo "$pins" > "$venv/.pins"
  fi
  mkdir -p "$out"

  # Offline and credential-free: the translator needs only a region name.
  local -a env=(env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_SESSION_TOKEN
    -u AWS_PROFILE AWS_DEFAULT_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true)

  if "${env[@]}" "$venv/bin/cfn-lint" infra/template.yaml; then
    echo "PASS cfn-lint infra/template.yaml"
  else
    echo "FAIL cfn-lint infra/template.yaml"
    return 1
  fi

  if "${env[@]}" "$venv/bin/python" tests/infra/translate.py infra/template.yaml "$out/template.cfn.json"; then
    echo "PASS SAM translator (aws-sam-translator) on infra/template.yaml"
  else
    echo "FAIL SAM translator on infra/template.yaml"
    return 1
  fi

  if "${env[@]}" "$venv/bin/cfn-lint" "$out/template.cfn.json"; then
    echo "PASS cfn-lint on the translated CloudFormation"
  else
    echo "FAIL cfn-lint on the translated CloudFormation ($out/template.cfn.json)"
    return 1
  fi

  "${env[@]}" "$venv/bin/python" tests/infra/check_template.py \
    infra/template.yaml "$out/template.cfn.json" .
}

infra_stage
