// The server's feature sets, fetched once per page load: they change only when the server is upgraded.
import { useQuery } from "@tanstack/react-query";
import { api } from "./client.js";

export function useFeatureSets() {
  return useQuery({ queryKey: ["feature-sets"], queryFn: api.featureSets, staleTime: Infinity, gcTime: Infinity });
}
