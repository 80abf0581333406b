#include "passes/graph_partitions.h"

#include <utility>

#include "glog/logging.h"

namespace sluice {

GraphPartitions::GraphPartitions() : arena_(std::make_shared<google::protobuf::Arena>()) {}

void GraphPartitions::Reset(std::shared_ptr<google::protobuf::Arena> arena) {
  graphs_.clear();
  arena_ = arena != nullptr ? std::move(arena) : std::make_shared<google::protobuf::Arena>();
}

GraphDef* GraphPartitions::Find(const std::string& device) const {
  auto it = graphs_.find(device);
  return it == graphs_.end() ? nullptr : it->second;
}

const GraphDef& GraphPartitions::at(const std::string& device) const {
  const GraphDef* gdef = Find(device);
  CHECK(gdef != nullptr) << "no partition for device " << device;
  return *gdef;
}

GraphDef* GraphPartitions::GetOrAdd(const std::string& device) {
  GraphDef*& gdef = graphs_[device];
  if (gdef == nullptr) gdef = google::protobuf::Arena::CreateMessage<GraphDef>(arena_.get());
  return gdef;
}

}  // namespace sluice
