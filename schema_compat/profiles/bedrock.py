"""AWS Bedrock Converse (`toolConfig.tools[].toolSpec.inputSchema.json`).

docs/providers.md BDR: the name is 1 to 64 characters of `[a-zA-Z0-9_-]` (BDR-01; botocore's
bedrock-runtime service model, shape `ToolName`: min 1, max 64, pattern `[a-zA-Z0-9_-]+`),
the root of `inputSchema.json` must be an object schema (BDR-02; the same model's
`ToolInputSchema` documentation: "The top level schema type must be object"), and Claude
models on Bedrock apply Anthropic's own schema checks too (BDR-03). So this is the
`anthropic` profile with Bedrock's name rule. A description is optional but never empty
(`NonEmptyString`, min 1): `transform --to bedrock` leaves an empty one out.

`ToolSpecification` has a `strict` flag; it is not sent (`strict_flag` None): what strict
mode takes is per model on Bedrock, and an SDK older than the flag refuses the field.
"""

from __future__ import annotations

from .anthropic import ANTHROPIC
from .openai import NAME_PATTERN, NAME_RULE
from .order import profile_order

BEDROCK = ANTHROPIC._replace(
    name="bedrock",
    short="BDR",
    title="AWS Bedrock Converse",
    target="toolConfig.tools[].toolSpec.inputSchema.json (JSON Schema)",
    strict_flag=None,
    rules=profile_order("bedrock", ANTHROPIC.rules),
    name_pattern=NAME_PATTERN,  # BDR-01: the same 1-64 `[a-zA-Z0-9_-]` as OpenAI's
    name_rule=NAME_RULE,
    sources=("botocore data/bedrock-runtime/2023-09-30/service-2.json (ToolSpecification, "
             "ToolName, ToolInputSchema)",
             "docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification"
             ".html",
             "docs/providers.md BDR-01, BDR-02, BDR-03"),
    facts=("BDR", "ANT"),
    notes="Anthropic's checks (Claude on Bedrock applies them, BDR-03) with Bedrock's "
          "64-character name rule; the root must be one object (BDR-02). No tool count or "
          "description limit is documented; `strict` is not sent.",
)
