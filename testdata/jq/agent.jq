def calls: select(.type == "tool_call") | .name;
